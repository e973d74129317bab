package io.zklock.benchmarks.scenarios;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.zklock.benchmarks.Scenario;
import io.zklock.benchmarks.ScenarioContext;
import io.zklock.benchmarks.leadership.LeaderLibrary;
import io.zklock.benchmarks.leadership.LeadershipFaults;
import io.zklock.benchmarks.leadership.LibraryFigures;
import io.zklock.benchmarks.leadership.LibraryFigures.Suspension;
import io.zklock.benchmarks.report.Target;
import io.zklock.benchmarks.report.TextTable;
import io.zklock.benchmarks.server.ServerKind;

/**
 * Scenario 15: leadership under faults, side by side: Curator's {@code LeaderLatch} as its docs
 * advise, Spring Integration's {@code LockRegistryLeaderInitiator} over zklock's
 * {@code ZkLockRegistry}, and zklock's {@code LeaderElection}; three leader processes each, session
 * timeout 2 s, a fenced store ({@link LeadershipFaults}). Two tables per server: the faults (stale
 * writes and two running leaders when the leader is frozen or cut off past its session, the next
 * leader's first write after a crash and after a graceful stop) and the latencies (handover,
 * fail-over, suspension to stopped leader work, also while a user callback blocks for 60 s). zklock
 * must have no stale write accepted.
 */
public final class LeadershipScenario implements Scenario {

	private static final String LATCH = LeaderLibrary.CURATOR_LEADER_LATCH.displayName();

	@Override
	public int number() {
		return 15;
	}

	@Override
	public String title() {
		return "Leadership under faults: Curator LeaderLatch, Spring Integration LeaderInitiator, zklock LeaderElection";
	}

	@Override
	public void run(ScenarioContext context) throws Exception {
		if (context.kind() == ServerKind.EMBEDDED) {
			context.results().skip("Scenario 15 (" + title() + ")",
					"leader processes are frozen, killed and cut off from servers in processes of their own: "
							+ "it runs on the process server and the ensemble");
			return;
		}
		LeadershipFaults.Plan plan = LeadershipFaults.Plan.of(context.scale());
		LeadershipFaults.Section section = LeadershipFaults.measure(context.kind(), plan);
		List<LibraryFigures> all = new ArrayList<>(section.figures().values());
		List<String> columns = new ArrayList<>(List.of("figure"));
		all.forEach((figures) -> columns.add(figures.library().displayName()));
		String server = context.kind().optionValue() + " server";

		TextTable faults = new TextTable("15. Leadership under faults (" + server + ")", columns);
		faults.row(row(String.format(Locale.ROOT, "leader SIGSTOPped for 2T, then resumed (%d runs): stale writes "
				+ "accepted / refused", plan.freezes()), all, (f) -> stale(f.freezes())));
		faults.row(row("the same: two running leaders, ms (each run)", all, (f) -> twoLeaders(f.freezes())));
		if (plan.cutOffs() > 0) {
			faults.row(row(String.format(Locale.ROOT, "leader cut off from every member for 2T (%d runs): stale "
					+ "writes accepted / refused", plan.cutOffs()), all, (f) -> stale(f.cutOffs())));
			faults.row(row("the same: two running leaders, ms (each run)", all, (f) -> twoLeaders(f.cutOffs())));
		}
		faults.row(row("leader killed with -9: next leader's first write, s (each run)", all,
				(f) -> f.kills().stream().map((ms) -> format(ms / 1000, 2)).collect(Collectors.joining(", "))));
		faults.row(row("leader stopped gracefully: next leader's first write, ms p50 / p99", all,
				(f) -> percentiles(f.handovers(), LibraryFigures.Handover::millis)));
		faults.row(row("the same, each process's first leave (code its JVM had not run yet), ms", all,
				(f) -> f.firstHandovers().isEmpty() ? "-" : f.firstHandovers().stream()
					.map((h) -> format(h.millis(), 0))
					.collect(Collectors.joining(", "))));
		faults.row(row("the same: the old leader's checks that passed after the successor's first, ms (longest)",
				all, (f) -> f.handovers().isEmpty() ? "-"
						: format(LibraryFigures.percentile(f.handovers(), LibraryFigures.Handover::twoLeadersMs, 100), 1)));
		faults.note(String.format(Locale.ROOT, "Servers: %s. Three leader processes per library (child JVMs, session "
				+ "timeout %d s, each through a proxy of its own), writing every 5 ms while they lead to a store that "
				+ "refuses a token lower than the highest it accepted; before every write each asks its library: "
				+ "LeaderLatch `hasLeadership()` and no SUSPENDED or LOST since the last RECONNECTED (a "
				+ "connection-state listener, as the recipe's docs advise), token: the latch node's czxid read in "
				+ "`isLeader()`; Spring Integration `Context.isLeader()` (LockRegistryLeaderInitiator, heartbeat 500 ms, "
				+ "over ZkLockRegistry), token: `ZkLockRegistry.fencingToken(role)` read in `onGranted`; zklock "
				+ "`Term.isActive()`, token: the term's. The successor begins at its first passed check (or its "
				+ "library's grant callback, if earlier); a stale write is the old leader's write that reached the "
				+ "store after that; two running leaders: the old leader's checks that passed after it, from the later "
				+ "of its begin and the resume (for a freeze) to the last such check. Graceful stop: LeaderLatch "
				+ "`close()`, `LockRegistryLeaderInitiator.stop()`, `Candidacy.leave()`, then joining again; each "
				+ "process leaves once before the measured stops (its first leave loads and interprets code its JVM "
				+ "never ran: shown apart).",
				section.servers(), LeadershipFaults.SESSION_TIMEOUT.toSeconds()));
		notes(faults, all);
		context.results().add(faults);

		TextTable latencies = new TextTable("15b. Leadership latencies (" + server + ")", columns);
		latencies.row(row("graceful handover (stop → next leader's first write), ms p50 / p99", all,
				(f) -> percentiles(f.handovers(), LibraryFigures.Handover::millis)));
		latencies.row(row("fail-over after a crash (kill -9 → next leader's first write), s p50 / max", all,
				(f) -> f.kills().isEmpty() ? "-"
						: format(LibraryFigures.percentile(f.kills(), (ms) -> ms / 1000, 50), 2) + " / "
								+ format(LibraryFigures.percentile(f.kills(), (ms) -> ms / 1000, 100), 2)));
		latencies.row(row("suspension → stopped leader work, ms p50 / p99", all, (f) -> suspension(f.drops())));
		if (plan.blockedDrops() > 0) {
			latencies.row(row("the same while the grant callback blocks for 60 s", all,
					(f) -> suspension(f.blockedGrant())));
			latencies.row(row("the same while the revocation callback blocks for 60 s", all,
					(f) -> suspension(f.blockedRevocation())));
		}
		latencies.row(row("connection dropped → the client's Disconnected, ms p50", all,
				(f) -> f.drops().isEmpty() ? "-"
						: format(LibraryFigures.percentile(f.drops(), Suspension::noticedMs, 50), 1)));
		latencies.note(String.format(Locale.ROOT, "Suspension: every connection of the leader to the servers is "
				+ "closed at once (its proxy resets them; the session lives on and the client reconnects within it); "
				+ "the ZooKeeper client raises Disconnected about 100 ms later (it sleeps 100 ms in its clean-up), "
				+ "which is when Curator suspends and the measure starts (from the drop for a process that printed no "
				+ "Disconnected: its event thread blocked). Stopped: the leader work's last passed check before the "
				+ "first of its work stopping, its client reconnecting (SyncConnected, or Curator's RECONNECTED) and "
				+ "%d s; 'ran through' counts the drops after which the work passed a check while suspended and did "
				+ "not stop before the reconnection (or %d s). The blocking "
				+ "callbacks: LeaderLatch `isLeader()` / "
				+ "`notLeader()` (listeners added without an executor, so they run on Curator's threads), Spring "
				+ "Integration `Candidate.onGranted` / `onRevoked` (on the initiator's thread), zklock "
				+ "`LeadershipListener.onGranted` / `onRevoked`; each blocks %d s in every process of a run.",
				LeadershipFaults.DROP_CAP.toSeconds(), LeadershipFaults.DROP_CAP.toSeconds(),
				LeadershipFaults.BLOCK.toSeconds()));
		context.results().add(latencies);

		LibraryFigures zklock = section.figures().get(LeaderLibrary.ZKLOCK);
		LibraryFigures latch = section.figures().get(LeaderLibrary.CURATOR_LEADER_LATCH);
		checksAndTargets(context, plan, zklock, latch);
	}

	private static void checksAndTargets(ScenarioContext context, LeadershipFaults.Plan plan, LibraryFigures zklock,
			LibraryFigures latch) {
		int staleFrozen = zklock.freezes().stream().mapToInt(LibraryFigures.StaleLeader::staleAccepted).sum();
		int staleCut = zklock.cutOffs().stream().mapToInt(LibraryFigures.StaleLeader::staleAccepted).sum();
		context.results().check(String.format(Locale.ROOT, "Scenario 15: zklock leaders frozen (%d) and cut off (%d) "
				+ "past their session had %d and %d stale writes accepted by the fenced store", zklock.freezes().size(),
				zklock.cutOffs().size(), staleFrozen, staleCut),
				staleFrozen == 0 && staleCut == 0 && zklock.freezes().size() == plan.freezes()
						&& zklock.cutOffs().size() == plan.cutOffs());
		double zkTwo = max(zklock.freezes(), LibraryFigures.StaleLeader::twoLeadersMs);
		context.results().target(new Target("two running leaders after SIGSTOP 2T, ms (longest)", zkTwo, LATCH,
				max(latch.freezes(), LibraryFigures.StaleLeader::twoLeadersMs), 1, "zklock ≤ 50", zkTwo <= 50));
		double zkHandover = LibraryFigures.percentile(zklock.handovers(), LibraryFigures.Handover::millis, 99);
		context.results().target(new Target("graceful handover p99, ms", zkHandover, LATCH,
				LibraryFigures.percentile(latch.handovers(), LibraryFigures.Handover::millis, 99), 1, "zklock ≤ 100",
				zkHandover <= 100));
		double zkFailover = LibraryFigures.percentile(zklock.kills(), (ms) -> ms / 1000, 100);
		double bound = LeadershipFaults.SESSION_TIMEOUT.plusSeconds(1).toMillis() / 1000.0;
		context.results().target(new Target("fail-over after a crash, s (longest)", zkFailover, LATCH,
				LibraryFigures.percentile(latch.kills(), (ms) -> ms / 1000, 100), 2,
				String.format(Locale.ROOT, "zklock ≤ %.1f (T + 1 s)", bound), zkFailover <= bound));
		List<Suspension> zkSuspensions = new ArrayList<>(zklock.drops());
		zkSuspensions.addAll(zklock.blockedGrant());
		zkSuspensions.addAll(zklock.blockedRevocation());
		List<Suspension> latchSuspensions = new ArrayList<>(latch.drops());
		latchSuspensions.addAll(latch.blockedGrant());
		latchSuspensions.addAll(latch.blockedRevocation());
		double zkStop = LibraryFigures.percentile(zkSuspensions, Suspension::stoppedMs, 99);
		context.results().target(new Target("suspension → stopped leader work p99, ms (callbacks free and blocking)",
				zkStop, LATCH, LibraryFigures.percentile(latchSuspensions, Suspension::stoppedMs, 99), 1,
				"zklock ≤ 100", zkStop <= 100));
	}

	private static void notes(TextTable table, List<LibraryFigures> all) {
		for (LibraryFigures figures : all) {
			for (String note : figures.notes()) {
				table.note(figures.library().displayName() + ": " + note + ".");
			}
		}
	}

	private static List<String> row(String figure, List<LibraryFigures> all, Function<LibraryFigures, String> cell) {
		List<String> cells = new ArrayList<>(List.of(figure));
		all.forEach((figures) -> cells.add(cell.apply(figures)));
		return cells;
	}

	private static String stale(List<LibraryFigures.StaleLeader> runs) {
		if (runs.isEmpty()) {
			return "-";
		}
		return runs.stream().mapToInt(LibraryFigures.StaleLeader::staleAccepted).sum() + " / "
				+ runs.stream().mapToInt(LibraryFigures.StaleLeader::staleRefused).sum();
	}

	private static String twoLeaders(List<LibraryFigures.StaleLeader> runs) {
		if (runs.isEmpty()) {
			return "-";
		}
		return runs.stream().map((run) -> format(run.twoLeadersMs(), 0)).collect(Collectors.joining(", "));
	}

	private static <T> String percentiles(List<T> values, java.util.function.ToDoubleFunction<T> figure) {
		if (values.isEmpty()) {
			return "-";
		}
		return format(LibraryFigures.percentile(values, figure, 50), 1) + " / "
				+ format(LibraryFigures.percentile(values, figure, 99), 1) + " (n=" + values.size() + ")";
	}

	private static String suspension(List<Suspension> drops) {
		if (drops.isEmpty()) {
			return "-";
		}
		long ranThrough = drops.stream().filter(Suspension::ranThrough).count();
		long capped = drops.stream().filter(Suspension::capped).count();
		return percentiles(drops, Suspension::stoppedMs) + ((ranThrough > 0)
				? "; ran through " + ranThrough + " of " + drops.size()
						+ ((capped > 0) ? " (" + capped + " not stopped within " + LeadershipFaults.DROP_CAP.toSeconds()
								+ " s)" : "")
				: "");
	}

	private static double max(List<LibraryFigures.StaleLeader> runs,
			java.util.function.ToDoubleFunction<LibraryFigures.StaleLeader> figure) {
		return runs.stream().mapToDouble(figure).max().orElse(Double.NaN);
	}

	private static String format(double value, int decimals) {
		return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", value);
	}

}
