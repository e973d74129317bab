package io.zklock.fault.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.zklock.fault.check.FaultHistory;
import io.zklock.fault.check.SafetyVerdict;
import io.zklock.fault.contender.CallShape;
import io.zklock.fault.harness.FaultLab;
import io.zklock.fault.history.Event;
import io.zklock.fault.register.KeyStats;
import io.zklock.fault.report.Figures;
import io.zklock.test.history.CheckResult;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No faults: every contender process runs guarded read–sleep–write rounds with several
 * threads on one hot lock. Nothing may overlap, no write may be stale, no update lost, every
 * reentrant acquire must return its hold's token.
 *
 * <p>
 * In the {@code thread} shape each worker holds thread-owned and re-enters every tenth round.
 * In the asynchronous shapes each worker acquires call-owned and hands the section to a shared
 * pool, where it runs and releases, while the worker already queues for its next round behind
 * its own previous call: a call-owned acquire that joined the hold of an earlier call on its
 * thread would show as an overlap.
 */
public final class NoFaultScenario {

	private NoFaultScenario() {
	}

	/**
	 * Runs the scenario on the lab's contenders (started if needed).
	 * @param contenders contender processes
	 * @param threads threads per contender
	 * @param rounds guarded rounds in total
	 * @param shape how each round is taken
	 */
	public static void run(FaultLab lab, String lockPath, int contenders, int threads, int rounds, CallShape shape,
			Figures figures) throws Exception {
		lab.startContenders(contenders, false);
		long start = System.nanoTime();
		lab.runAll(lockPath, threads, rounds / contenders, 0, 2, shape.isThreadOwned() ? 10 : 0, shape);
		int completed = lab.awaitRunsDone(Duration.ofMinutes(5));
		double seconds = (System.nanoTime() - start) / 1e9;

		List<Event> history = lab.history().snapshot();
		CheckResult result = FaultHistory.check(history, lockPath);
		KeyStats stats = lab.register().stats(lockPath);
		List<Long> latencies = acquireLatenciesMicros(history, lockPath);
		int queuedBehindOwnCall = acquiresWhileOwnCallHolds(history, lockPath);
		int releasedOffThread = releasesOnPoolThreads(history, lockPath);
		figures.rounds(result.grants())
			.staleWrites(stats.rejectedStale(), stats.acceptedStale())
			.overlaps(Integer.toString(result.overlaps().size()))
			.extra(lockPath + " contenders × threads", contenders + " × " + threads)
			.extra(lockPath + " call shape", shape + (shape.isThreadOwned() ? " (thread-owned)" : " (call-owned)"))
			.extra(lockPath + " reentrant acquires (same token)", result.reentrantGrants())
			.extra(lockPath + " acquires queued while the worker's own call held the lock", queuedBehindOwnCall)
			.extra(lockPath + " releases on a pool thread", releasedOffThread)
			.extra(lockPath + " grants/s on one hot lock", Math.round(result.grants() / seconds))
			.extra(lockPath + " acquire p50/p99 ms", percentile(latencies, 50) / 1000.0 + " / "
					+ percentile(latencies, 99) / 1000.0);

		assertThat(completed).as("rounds completed").isEqualTo(rounds / contenders * contenders);
		SafetyVerdict.assertSafe(result, stats, true, lab.historyFile());
		assertThat(result.grants()).as("grants").isEqualTo(completed);
		assertThat(stats.acceptedWrites()).as("accepted writes").isEqualTo(completed);
		assertThat(stats.rejectedStale()).as("stale writes without faults").isZero();
		assertThat(result.acquireFailures()).as("failed acquires without faults").isZero();
		assertThat(result.lossReports()).as("lock losses without faults").isZero();
		if (shape.isThreadOwned()) {
			assertThat(result.reentrantGrants()).as("reentrant acquires (thread-owned holds)").isPositive();
		}
		else {
			assertThat(result.reentrantGrants()).as("reentrant acquires (call-owned holds never join)").isZero();
			assertThat(queuedBehindOwnCall).as("acquires queued while the worker's own earlier call held the lock")
				.isPositive();
			assertThat(releasedOffThread).as("releases on a pool thread").isEqualTo(completed);
		}
	}

	/**
	 * Acquires a worker invoked while an earlier call of the same worker still held the lock
	 * (granted, release not yet invoked): each had to queue behind that call's lock node.
	 */
	public static int acquiresWhileOwnCallHolds(List<Event> history, String lockPath) {
		Map<String, Long> holding = new HashMap<>();
		int queued = 0;
		for (Event e : history) {
			if (!e.lockPath().equals(lockPath) || e.isReentrant()) {
				continue;
			}
			String worker = e.process() + "/" + e.thread();
			if (e.isGrant()) {
				holding.put(worker, e.token());
			}
			else if (e.is("invoke", "release")) {
				holding.remove(worker, e.token());
			}
			else if (e.is("invoke", "acquire") && holding.containsKey(worker)) {
				queued++;
			}
		}
		return queued;
	}

	/** Releases that ran on a section or release pool thread ({@code on=section-N}, {@code on=release-N}). */
	public static int releasesOnPoolThreads(List<Event> history, String lockPath) {
		return (int) history.stream()
			.filter((e) -> e.lockPath().equals(lockPath) && e.is("invoke", "release")
					&& (e.detail().startsWith("on=section-") || e.detail().startsWith("on=release-")))
			.count();
	}

	private static List<Long> acquireLatenciesMicros(List<Event> history, String lockPath) {
		Map<String, Long> invoked = new HashMap<>();
		List<Long> latencies = new ArrayList<>();
		for (Event e : history) {
			if (!e.lockPath().equals(lockPath) || e.isReentrant()) {
				continue;
			}
			String worker = e.process() + "/" + e.thread();
			if (e.is("invoke", "acquire")) {
				invoked.put(worker, e.nanos());
			}
			else if (e.is("ok", "acquire") && invoked.containsKey(worker)) {
				latencies.add((e.nanos() - invoked.remove(worker)) / 1000);
			}
		}
		Collections.sort(latencies);
		return latencies;
	}

	private static long percentile(List<Long> sorted, int p) {
		if (sorted.isEmpty()) {
			return 0;
		}
		int rank = (int) Math.ceil(p / 100.0 * sorted.size());
		return sorted.get(Math.max(0, rank - 1));
	}

}
