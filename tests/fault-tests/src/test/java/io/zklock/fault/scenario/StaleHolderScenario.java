package io.zklock.fault.scenario;

import java.time.Duration;
import java.util.List;

import io.zklock.fault.check.FaultHistory;
import io.zklock.fault.check.Liveness;
import io.zklock.fault.check.SafetyVerdict;
import io.zklock.fault.contender.CallShape;
import io.zklock.fault.harness.ContenderProcess;
import io.zklock.fault.harness.FaultLab;
import io.zklock.fault.history.Event;
import io.zklock.fault.register.KeyStats;
import io.zklock.fault.report.Figures;
import io.zklock.test.history.CheckResult;

import static org.awaitility.Awaitility.await;

/**
 * Kleppmann's scenario, on real processes: holder A reads the register under its lock, then
 * is cut off (paused or partitioned) for two session timeouts; its session expires, rival B
 * acquires, reads and writes; A comes back and writes with its old token. A fenced register
 * must reject that write, and A's library must report the lock lost within a second of A
 * coming back. With the register unfenced the stale write is accepted: the fault has teeth.
 * Afterwards both contenders acquire again.
 *
 * <p>
 * In the {@code thread} call shape A and B each hold thread-owned on one thread; in the
 * asynchronous shapes they acquire call-owned on one thread and read, write and release on
 * pool threads (A's late write and its release run on threads that never acquired anything).
 */
public final class StaleHolderScenario {

	private StaleHolderScenario() {
	}

	/**
	 * What happened in one run.
	 *
	 * @param holderToken A's token
	 * @param rivalToken B's token
	 * @param rivalAccepted whether B's write was accepted
	 * @param staleWrite {@code accepted} or {@code rejected}: the register's answer to A's late write
	 * @param rivalGrantMillis from the fault to B's grant
	 * @param doubtMillis from the fault to A's library putting the lock in doubt, or -1
	 * @param lostAfterHealMillis from the end of the fault to A's library reporting the lock
	 * lost (negative: reported before the fault ended), or {@link Long#MAX_VALUE} if never
	 * @param releaseResult what A's release returned
	 * @param releasedOn the thread that released A's lock: {@code -} for the thread that
	 * acquired it (thread-owned), {@code on=<thread>} for a call-owned hold
	 * @param result the checker's findings
	 * @param stats the register's figures
	 * @param liveness liveness violations after the fault
	 */
	public record Outcome(long holderToken, long rivalToken, boolean rivalAccepted, String staleWrite,
			long rivalGrantMillis, long doubtMillis, long lostAfterHealMillis, String releaseResult, String releasedOn,
			CheckResult result, KeyStats stats, List<String> liveness) {

		/** The safety problems found, overlaps excluded (A was cut off on purpose). */
		public List<String> problems() {
			List<String> problems = new java.util.ArrayList<>(SafetyVerdict.problems(this.result, this.stats, false));
			problems.addAll(this.liveness);
			return problems;
		}

	}

	public static Outcome run(FaultLab lab, String lockPath, HolderFault fault, boolean fenced, Figures figures)
			throws Exception {
		return run(lab, lockPath, fault, fenced, CallShape.THREAD, figures);
	}

	/**
	 * Runs the scenario with the holder's and the rival's sections in the given call shape.
	 */
	public static Outcome run(FaultLab lab, String lockPath, HolderFault fault, boolean fenced, CallShape shape,
			Figures figures) throws Exception {
		Duration session = lab.sessionTimeout();
		ContenderProcess holder = lab.live().get(0);
		ContenderProcess rival = lab.live().get(1);
		lab.register().setFenced(fenced);
		try {
			String shapeOption = " shape=" + shape.word();
			String[] held = holder.call("hold " + lockPath + " " + lab.lockWait().toMillis() + shapeOption, "held",
					Duration.ofSeconds(30)).split(" ");
			long holderToken = Long.parseLong(held[0]);
			rival.send("round " + lockPath + " " + lab.lockWait().toMillis() + shapeOption);

			Event faultEvent = lab.history().nemesis(fault.kind(), holder.id());
			fault.inject(lab, holder);
			figures.fault(fault.kind());
			String[] round = rival.awaitReply("round", session.multipliedBy(3).plusSeconds(10)).split(" ");
			long rivalToken = Long.parseLong(round[0]);
			// keep the holder cut off for two session timeouts in all
			await().pollDelay(remaining(faultEvent, session.multipliedBy(2))).atMost(session.multipliedBy(3))
				.until(() -> true);
			Event healEvent = lab.history().nemesis("heal " + fault.kind(), holder.id());
			fault.heal(lab, holder);
			holder.send("write");
			String staleWrite = holder.awaitReply("wrote", Duration.ofSeconds(30)).trim();
			Event lost = await("the holder's library to report the lock LOST").atMost(session.multipliedBy(3))
				.until(() -> lostEvent(lab, holder, holderToken, "LOST"), (e) -> e != null);
			Event doubt = lostEvent(lab, holder, holderToken, null);
			String releaseResult = holder.call("release", "released", Duration.ofSeconds(30)).trim();

			lab.run(holder, lockPath, 1, 3, 0, 2, 0, shape);
			lab.run(rival, lockPath, 1, 3, 0, 2, 0, shape);
			holder.awaitReply("run-done", session.multipliedBy(4));
			rival.awaitReply("run-done", session.multipliedBy(4));

			List<Event> history = lab.history().snapshot();
			Event rivalGrant = Liveness.firstGrantAfter(history, lockPath, faultEvent.nanos(), rival.id(), null);
			CheckResult result = FaultHistory.check(history, lockPath);
			KeyStats stats = lab.register().stats(lockPath);
			List<String> liveness = Liveness.check(history, List.of(holder.id(), rival.id()), lockPath,
					healEvent.nanos(), session.multipliedBy(2));
			Outcome outcome = new Outcome(holderToken, rivalToken, round[1].equals("accepted"), staleWrite,
					millis(rivalGrant.nanos() - faultEvent.nanos()),
					(doubt != null) ? millis(doubt.nanos() - faultEvent.nanos()) : -1,
					millis(lost.nanos() - healEvent.nanos()), releaseResult, releasedOn(history, holder, holderToken),
					result, stats, liveness);
			figures.rounds(result.grants())
				.staleWrites(stats.rejectedStale(), stats.acceptedStale())
				.failover(outcome.rivalGrantMillis())
				.overlaps(result.overlaps().size() + " (holder cut off on purpose); " + result.overlapsUntilDoubt().size()
						+ " until in doubt")
				.extra(lockPath + " register", fenced ? "fenced" : "UNFENCED (negative control)")
				.extra(lockPath + " call shape", shape + (shape.isThreadOwned() ? " (thread-owned)" : " (call-owned)"))
				.extra(lockPath + " tokens holder/rival", holderToken + " / " + rivalToken)
				.extra(lockPath + " late write of the holder", staleWrite)
				.extra(lockPath + " fault → holder in doubt ms", outcome.doubtMillis())
				.extra(lockPath + " fault → rival granted ms", outcome.rivalGrantMillis())
				.extra(lockPath + " heal → holder reports LOST ms", outcome.lostAfterHealMillis())
				.extra(lockPath + " holder's release", releaseResult + " " + outcome.releasedOn());
			return outcome;
		}
		finally {
			lab.register().setFenced(true);
		}
	}

	private static Event lostEvent(FaultLab lab, ContenderProcess holder, long token, String state) {
		return lab.history()
			.snapshot()
			.stream()
			.filter((e) -> e.process().equals(holder.id()) && e.is("lost", "lock") && e.token() == token
					&& (state == null || e.detail().equals(state)))
			.findFirst()
			.orElse(null);
	}

	private static String releasedOn(List<Event> history, ContenderProcess holder, long token) {
		return history.stream()
			.filter((e) -> e.process().equals(holder.id()) && e.is("invoke", "release") && e.token() == token)
			.map(Event::detail)
			.findFirst()
			.orElse("never");
	}

	private static Duration remaining(Event since, Duration total) {
		long left = total.toNanos() - (System.nanoTime() - since.nanos());
		return Duration.ofNanos(Math.max(0, left));
	}

	private static long millis(long nanos) {
		return nanos / 1_000_000;
	}

}
