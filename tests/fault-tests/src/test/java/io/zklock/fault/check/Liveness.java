package io.zklock.fault.check;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import io.zklock.fault.history.Event;

/**
 * Progress after faults: who acquired when. Liveness here means every live contender is
 * granted the lock again within a bound after the faults stop.
 */
public final class Liveness {

	private Liveness() {
	}

	/**
	 * The first grant on {@code lockPath} at or after {@code fromNanos}.
	 * @param process the grantee, or {@code null} for anyone
	 * @param notProcess a process to leave out, or {@code null}
	 * @return the grant, or {@code null} if none
	 */
	public static Event firstGrantAfter(List<Event> history, String lockPath, long fromNanos, String process,
			String notProcess) {
		for (Event e : history) {
			if (e.nanos() >= fromNanos && e.isGrant() && e.lockPath().equals(lockPath)
					&& (process == null || e.process().equals(process))
					&& (notProcess == null || !e.process().equals(notProcess))) {
				return e;
			}
		}
		return null;
	}

	/**
	 * The first grant on {@code lockPath} whose acquire was invoked after {@code fromNanos}: the
	 * first fresh acquire (a new lock node, so a quorum write) to succeed after a fault.
	 * @param notProcess a process to leave out, or {@code null}
	 * @return the grant, or {@code null} if none
	 */
	public static Event firstFreshGrantAfter(List<Event> history, String lockPath, long fromNanos, String notProcess) {
		java.util.Map<String, Long> invoked = new java.util.HashMap<>();
		for (Event e : history) {
			if (!e.lockPath().equals(lockPath) || e.isReentrant()
					|| (notProcess != null && e.process().equals(notProcess))) {
				continue;
			}
			String worker = e.process() + "/" + e.thread();
			if (e.is("invoke", "acquire")) {
				invoked.put(worker, e.nanos());
			}
			else if (e.isGrant() && invoked.getOrDefault(worker, Long.MIN_VALUE) > fromNanos) {
				return e;
			}
		}
		return null;
	}

	/**
	 * Checks that each process was granted the lock within {@code bound} after
	 * {@code healNanos}.
	 * @return the violations in words, empty if all made progress in time
	 */
	public static List<String> check(List<Event> history, Collection<String> processes, String lockPath,
			long healNanos, Duration bound) {
		List<String> violations = new ArrayList<>();
		for (String process : processes) {
			Event grant = firstGrantAfter(history, lockPath, healNanos, process, null);
			if (grant == null) {
				violations.add(process + " was never granted '" + lockPath + "' after the faults stopped");
			}
			else if (grant.nanos() - healNanos > bound.toNanos()) {
				violations.add(process + " was granted '" + lockPath + "' only " + millis(grant.nanos() - healNanos)
						+ " ms after the faults stopped (bound " + bound.toMillis() + " ms)");
			}
		}
		return violations;
	}

	/** The longest time any of {@code processes} waited for its first grant after {@code healNanos}, in ms. */
	public static long slowestRecoveryMillis(List<Event> history, Collection<String> processes, String lockPath,
			long healNanos) {
		long slowest = 0;
		for (String process : processes) {
			Event grant = firstGrantAfter(history, lockPath, healNanos, process, null);
			slowest = Math.max(slowest, (grant != null) ? millis(grant.nanos() - healNanos) : Long.MAX_VALUE);
		}
		return slowest;
	}

	/** Grants on {@code lockPath} stamped strictly between two instants. */
	public static List<Event> grantsBetween(List<Event> history, String lockPath, long fromNanos, long toNanos) {
		return history.stream()
			.filter((e) -> e.isGrant() && e.lockPath().equals(lockPath) && e.nanos() > fromNanos
					&& e.nanos() < toNanos)
			.toList();
	}

	static long millis(long nanos) {
		return nanos / 1_000_000;
	}

}
