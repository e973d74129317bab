package io.zklock.fault.check;

import java.util.ArrayList;
import java.util.List;

import io.zklock.fault.history.Event;
import io.zklock.lock.LockMode;
import io.zklock.test.history.CheckResult;
import io.zklock.test.history.HistoryChecker;
import io.zklock.test.history.LockEvent;
import io.zklock.test.history.LockEvent.Type;

/**
 * The fault suite's history in the terms of zklock's published checker
 * ({@code zklock-test-history}): the contenders' acquires, releases and loss reports, their
 * deaths, and the fenced register's write decisions become {@link LockEvent}s, which
 * {@link HistoryChecker} judges. What only the fault suite checks lies on top: the register's
 * figures ({@link SafetyVerdict}) and progress after faults ({@link Liveness}).
 */
public final class FaultHistory {

	private FaultHistory() {
	}

	/**
	 * Checks every lock path of a fault run with the published checker, each on its own and the
	 * fencing tokens across lock paths (unique, and in real-time order).
	 * @param history the run's events, sorted by stamp
	 * @return the checker's findings, over every lock path
	 */
	public static CheckResult check(List<Event> history) {
		return HistoryChecker.check(toLockEvents(history));
	}

	/**
	 * Checks one lock path of a fault run with the published checker.
	 * @param history the run's events, sorted by stamp
	 * @param lockPath the lock path (the register key)
	 * @return the checker's findings
	 */
	public static CheckResult check(List<Event> history, String lockPath) {
		return HistoryChecker.check(toLockEvents(history), lockPath);
	}

	/**
	 * The events the checker judges, in the order given. A contender's process is the holder
	 * and its worker the thread; reentrant releases (which keep the lock node) and reads,
	 * contenders' own write reports and nemesis events are left out.
	 * @param history the run's events
	 * @return the lock events
	 */
	public static List<LockEvent> toLockEvents(List<Event> history) {
		List<LockEvent> events = new ArrayList<>(history.size());
		for (Event e : history) {
			Type type = typeOf(e);
			if (type != null) {
				events.add(new LockEvent(e.nanos(), e.process(), e.thread(), type, e.lockPath(), LockMode.EXCLUSIVE,
						e.token(), e.detail()));
			}
		}
		return events;
	}

	private static Type typeOf(Event e) {
		if (e.type().equals("died")) {
			return Type.DIED;
		}
		if (e.process().equals("register") && e.type().equals("write")) {
			return e.f().startsWith("accepted") ? Type.WRITE_ACCEPTED : Type.WRITE_REFUSED;
		}
		if (e.is("invoke", "acquire")) {
			return e.isReentrant() ? null : Type.ACQUIRING;
		}
		if (e.is("ok", "acquire")) {
			return e.isReentrant() ? Type.REENTERED : Type.GRANTED;
		}
		if (e.is("fail", "acquire")) {
			return Type.FAILED;
		}
		if (e.is("invoke", "release")) {
			return e.isReentrant() ? null : Type.RELEASING;
		}
		if (e.is("ok", "release")) {
			return e.isReentrant() ? null : Type.RELEASED;
		}
		if (e.is("lost", "lock")) {
			return e.detail().equals("LOST") ? Type.LOST : Type.IN_DOUBT;
		}
		return null;
	}

}
