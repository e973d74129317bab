package io.zklock.fault.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The figures one fault test reports: printed to the test's output and added as a row to
 * {@code figures.md} in the fault output directory, so one run yields the whole table (a new
 * test JVM starts a new table).
 *
 * <p>
 * Not thread-safe: one test fills it.
 */
public final class Figures {

	/** Figures and outcomes for the reader of the run (logger io.zklock.fault.report, INFO). */
	private static final Logger REPORT = LoggerFactory.getLogger("io.zklock.fault.report");

	private static final String HEADER = "| test | ensemble | rounds | faults | stale writes rejected "
			+ "| stale writes accepted | overlaps | failover p50/max ms | leaked nodes | leaked watches | seconds |";

	private final String test;

	private final long startNanos = System.nanoTime();

	private final Map<String, Integer> faults = new TreeMap<>();

	private final List<Long> failoverMillis = new ArrayList<>();

	private final Map<String, Object> extras = new LinkedHashMap<>();

	private String ensemble = "-";

	private long rounds;

	private long staleRejected;

	private long staleAccepted;

	private String overlaps = "-";

	private String leakedNodes = "-";

	private String leakedWatches = "-";

	public Figures(String test) {
		this.test = test;
	}

	public Figures ensemble(String ensemble) {
		this.ensemble = ensemble;
		return this;
	}

	/** Adds completed guarded rounds (grants). */
	public Figures rounds(long rounds) {
		this.rounds += rounds;
		return this;
	}

	/** Counts one injected fault of a kind, such as {@code kill-9}. */
	public Figures fault(String kind) {
		this.faults.merge(kind, 1, Integer::sum);
		return this;
	}

	public Figures staleWrites(long rejected, long accepted) {
		this.staleRejected += rejected;
		this.staleAccepted += accepted;
		return this;
	}

	/** The overlaps of held intervals, with a note, such as {@code "0"} or {@code "1 (paused holder)"}. */
	public Figures overlaps(String overlaps) {
		this.overlaps = overlaps;
		return this;
	}

	/** Adds one failover time: from a fault to the next grant to someone else. */
	public Figures failover(long millis) {
		this.failoverMillis.add(millis);
		return this;
	}

	public Figures leaks(int nodes, int watches) {
		this.leakedNodes = Integer.toString(nodes);
		this.leakedWatches = Integer.toString(watches);
		return this;
	}

	/** Any other figure worth printing. */
	public Figures extra(String name, Object value) {
		this.extras.put(name, value);
		return this;
	}

	public List<Long> failovers() {
		return Collections.unmodifiableList(this.failoverMillis);
	}

	/** The p-th percentile (nearest rank) of the failover times, or -1 if none. */
	public long failoverPercentile(int p) {
		if (this.failoverMillis.isEmpty()) {
			return -1;
		}
		List<Long> sorted = new ArrayList<>(this.failoverMillis);
		Collections.sort(sorted);
		int rank = (int) Math.ceil(p / 100.0 * sorted.size());
		return sorted.get(Math.max(0, rank - 1));
	}

	/** Prints the figures and appends the table row to {@code figures.md} under {@code outputDir}. */
	public void report(Path outputDir) {
		long seconds = (System.nanoTime() - this.startNanos) / 1_000_000_000L;
		String faultList = this.faults.isEmpty() ? "none"
				: this.faults.entrySet().stream().map((e) -> e.getKey() + "×" + e.getValue()).collect(Collectors.joining(", "));
		String failover = this.failoverMillis.isEmpty() ? "-"
				: failoverPercentile(50) + " / " + failoverPercentile(100) + " (n=" + this.failoverMillis.size() + ")";
		StringBuilder out = new StringBuilder();
		out.append("[figures] ").append(this.test).append('\n');
		out.append("[figures]   ensemble:              ").append(this.ensemble).append('\n');
		out.append("[figures]   rounds (grants):       ").append(this.rounds).append('\n');
		out.append("[figures]   faults injected:       ").append(faultList).append('\n');
		out.append("[figures]   stale writes rejected: ").append(this.staleRejected).append('\n');
		out.append("[figures]   stale writes accepted: ").append(this.staleAccepted).append('\n');
		out.append("[figures]   overlaps:              ").append(this.overlaps).append('\n');
		out.append("[figures]   failover p50/max ms:   ").append(failover).append('\n');
		out.append("[figures]   leaked nodes/watches:  ").append(this.leakedNodes).append(" / ").append(this.leakedWatches)
			.append('\n');
		this.extras.forEach((name, value) -> out.append("[figures]   ").append(name).append(": ").append(value).append('\n'));
		out.append("[figures]   seconds:               ").append(seconds).append('\n');
		REPORT.info(out.toString().stripTrailing());
		String row = "| " + String.join(" | ", this.test, this.ensemble, Long.toString(this.rounds), faultList,
				Long.toString(this.staleRejected), Long.toString(this.staleAccepted), this.overlaps, failover,
				this.leakedNodes, this.leakedWatches, Long.toString(seconds)) + " |";
		append(outputDir.resolve("figures.md"), row);
	}

	/** Whether this JVM has started its table yet: each test run writes a fresh one. */
	private static boolean tableStarted;

	private static synchronized void append(Path file, String row) {
		try {
			Files.createDirectories(file.getParent());
			if (!tableStarted) {
				Files.deleteIfExists(file);
				tableStarted = true;
			}
			if (!Files.exists(file)) {
				Files.writeString(file, HEADER + "\n|" + "---|".repeat(11) + "\n", StandardCharsets.UTF_8);
			}
			Files.writeString(file, row + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
