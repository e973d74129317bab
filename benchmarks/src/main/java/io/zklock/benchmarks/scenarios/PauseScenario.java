package io.zklock.benchmarks.scenarios;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.zklock.benchmarks.Scenario;
import io.zklock.benchmarks.ScenarioContext;
import io.zklock.benchmarks.peers.PauseTest;
import io.zklock.benchmarks.peers.PeerServers;
import io.zklock.benchmarks.report.TextTable;

/**
 * Scenario 13: the safety column. For every library, the holder's JVM is paused
 * ({@code SIGSTOP}) for twice its lease, a rival takes the lock and writes, the holder wakes and
 * writes with whatever token its library gave it, against a store that refuses a lower token
 * ({@link PauseTest}). zklock with its defaults must have no stale write accepted.
 */
public final class PauseScenario implements Scenario {

	@Override
	public int number() {
		return 13;
	}

	@Override
	public String title() {
		return "A paused holder (SIGSTOP for twice the lease), every library";
	}

	@Override
	public void run(ScenarioContext context) throws Exception {
		if (!PeerLineup.runs(context, this)) {
			return;
		}
		Map<String, String> libraries = PauseTest.libraries(context.peers(), context.scale().pauseEveryLibrary());
		TextTable table = new TextTable("13. " + title() + " (" + context.kind().optionValue() + " server)",
				List.of("library", "token the holder got", "rival's token", "rival granted after the stop (s)",
						"holder told after waking (s)", "both believed they held (s)", "stale writes accepted",
						"stale writes refused"));
		for (Map.Entry<String, String> library : libraries.entrySet()) {
			PauseTest.Outcome outcome = PauseTest.run(library.getKey(), context.server().connectString(0),
					context.peers(), "/bench/pause", PeerServers.LEASE);
			System.out.printf(Locale.ROOT, "  %-22s %s%n", library.getValue(), outcome);
			table.row(List.of(library.getValue(), outcome.holderToken().equals("-") ? "none" : outcome.holderToken(),
					outcome.rivalToken().equals("-") ? "none" : outcome.rivalToken(),
					seconds(outcome.rivalGrantedSeconds(), "no grant during the pause"),
					seconds(outcome.toldSeconds(), "never, in 3 leases"),
					seconds(outcome.bothHeldSeconds(), "until the end (never told)"),
					Integer.toString(outcome.staleAccepted()), Integer.toString(outcome.staleRefused())));
			if (library.getKey().equals("zklock")) {
				context.results().check(String.format(Locale.ROOT,
						"Scenario 13: a zklock holder paused for twice its session timeout had %d stale writes "
								+ "accepted by a store that refuses lower tokens (%d refused)",
						outcome.staleAccepted(), outcome.staleRefused()), outcome.staleAccepted() == 0);
			}
		}
		table.note(String.format(Locale.ROOT, "Lease, the same for every library: %d s (a ZooKeeper session timeout, "
				+ "Redisson's lockWatchdogTimeout, an etcd lease TTL, the Hazelcast cluster's CP session TTL); the "
				+ "holder, a JVM of its own, is stopped for %d s between its check and its write, then writes at once, "
				+ "then asks its library before every further write (zklock: `LockHandle.isHeld()`; Curator: "
				+ "`isOwnedByCurrentThread()` and no SUSPENDED or LOST seen, as Curator advises; Redisson: "
				+ "`isHeldByCurrentThread()`, a call to Redis; etcd: the session's keep-alive stream still running; "
				+ "Hazelcast: `isLockedByCurrentThread()`, a call to the CP group). The store refuses a write whose "
				+ "token is lower than the highest it accepted; a write without a token cannot be refused. 'Both "
				+ "believed they held': from the rival's grant until the holder's library told it the lock was gone. "
				+ "Stale writes: the holder's writes after the rival's.",
				PeerServers.LEASE.toSeconds(), PeerServers.LEASE.multipliedBy(2).toSeconds()));
		context.results().add(table);
	}

	private static String seconds(double value, String otherwise) {
		return (value < 0) ? otherwise : String.format(Locale.ROOT, "%.2f", value);
	}

}
