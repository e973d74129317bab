package io.zklock.sample.demo;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.zklock.sample.audit.AuditStatus;

/**
 * What the demo shows of the leader-only inventory audit: each instance's runs and skipped calls,
 * and the audit ledger that all of them share, read as written: who wrote each entry, under which
 * fencing token. With leadership one instance runs the job at each tick and the others skip it;
 * the ledger's writers follow one another in runs (one per term), tokens never decreasing.
 */
final class AuditSummary {

	private final boolean locking;

	private final Map<String, AuditStatus> statuses;

	private final List<Entry> entries;

	private AuditSummary(boolean locking, Map<String, AuditStatus> statuses, List<Entry> entries) {
		this.locking = locking;
		this.statuses = statuses;
		this.entries = entries;
	}

	/**
	 * Reads the summary.
	 * @param locking whether the instances ran with zklock
	 * @param statuses each instance's {@code GET /audit}, by instance name, in instance order
	 * @param ledgerLines the ledger's lines, {@code <millis> <instance id> <token> <total stock>}
	 * @return the summary
	 */
	static AuditSummary of(boolean locking, Map<String, AuditStatus> statuses, List<String> ledgerLines) {
		List<Entry> entries = new ArrayList<>();
		for (String line : ledgerLines) {
			String[] fields = line.trim().split(" ");
			if (fields.length == 4) {
				entries.add(new Entry(fields[1], Long.parseLong(fields[2])));
			}
		}
		return new AuditSummary(locking, new LinkedHashMap<>(statuses), List.copyOf(entries));
	}

	/** The instances that ran the job at least once. */
	List<String> runners() {
		return this.statuses.entrySet().stream().filter((status) -> status.getValue().runs() > 0)
			.map(Map.Entry::getKey).toList();
	}

	/** The instance that leads now, if one says so. */
	Optional<String> leader() {
		return this.statuses.entrySet().stream().filter((status) -> status.getValue().leader())
			.map(Map.Entry::getKey).findFirst();
	}

	long runs() {
		return this.statuses.values().stream().mapToLong(AuditStatus::runs).sum();
	}

	long skipped() {
		return this.statuses.values().stream().mapToLong(AuditStatus::skipped).sum();
	}

	long refused() {
		return this.statuses.values().stream().mapToLong(AuditStatus::refused).sum();
	}

	int entries() {
		return this.entries.size();
	}

	/**
	 * The ledger's writers in order, one per run of consecutive entries: with leadership, one run
	 * per term.
	 * @return such as {@code ["127.0.0.1:8081", "127.0.0.1:8083"]}
	 */
	List<String> writerRuns() {
		List<String> runs = new ArrayList<>();
		for (Entry entry : this.entries) {
			if (runs.isEmpty() || !runs.get(runs.size() - 1).equals(entry.instance())) {
				runs.add(entry.instance());
			}
		}
		return runs;
	}

	/** Whether each writer wrote in one run only and the tokens never went down. */
	boolean oneWriterPerTerm() {
		List<String> runs = writerRuns();
		if (runs.stream().distinct().count() != runs.size()) {
			return false;
		}
		for (int i = 1; i < this.entries.size(); i++) {
			if (this.entries.get(i).token() < this.entries.get(i - 1).token()) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Prints the summary.
	 * @param out where to print
	 */
	void print(PrintStream out) {
		out.printf(Locale.ROOT, "%nLeader-only job (@Scheduled, @LeaderOnly(\"%s\"): every instance's scheduler fires, "
				+ "the leader runs it)%n", this.statuses.values().stream().findFirst().map(AuditStatus::role).orElse(""));
		this.statuses.forEach((name, status) -> out.printf(Locale.ROOT, "  %-11s %-34s ran %5d   skipped %5d%n", name,
				status.leader() ? "leader, term token " + status.fencingToken() : (this.locking ? "follower" : "no leadership"),
				status.runs(), status.skipped()));
		out.printf(Locale.ROOT, "  audit ledger  %d entries by %s; fencing tokens %s; %d refused%n", entries(),
				String.join(" then ", writerRuns()), oneWriterPerTerm() ? "never decreasing" : "OUT OF ORDER", refused());
		if (!this.locking) {
			out.printf(Locale.ROOT, "  without zklock every instance runs the job: %d runs on %d instances%n", runs(),
					runners().size());
		}
		else if (runners().size() == 1) {
			out.printf(Locale.ROOT, "  each tick ran on exactly one instance: %d runs, all on %s; the other %d calls "
					+ "were skipped%n", runs(), runners().get(0), skipped());
		}
		else {
			out.printf(Locale.ROOT, "  %d instances ran the job (%s): leadership moved, one writer per term: %s%n",
					runners().size(), String.join(", ", runners()), oneWriterPerTerm() ? "yes" : "NO");
		}
	}

	/** One ledger entry. */
	private record Entry(String instance, long token) {
	}

}
