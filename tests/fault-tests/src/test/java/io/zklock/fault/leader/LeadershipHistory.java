package io.zklock.fault.leader;

import java.util.ArrayList;
import java.util.List;

import io.zklock.fault.history.Event;
import io.zklock.lock.LockMode;
import io.zklock.test.history.HistoryChecker;
import io.zklock.test.history.LockEvent;
import io.zklock.test.history.LockEvent.Type;
import io.zklock.test.history.TermCheckResult;

/**
 * A leadership fault run in the terms of zklock's published checker
 * ({@link HistoryChecker#checkTerms(List)}, "one fenced writer per term"): the leader processes'
 * {@code term granted} and {@code term revoked} events become {@link Type#TERM_GRANTED} and
 * {@link Type#TERM_REVOKED}, the fenced register's decisions on the role's key
 * {@link Type#WRITE_ACCEPTED} and {@link Type#WRITE_REFUSED} at the register's stamp, the writer
 * named by the process whose leader work wrote with that token (the register hears only the
 * token).
 */
public final class LeadershipHistory {

	private LeadershipHistory() {
	}

	/** Checks a run's history against "one fenced writer per term". */
	public static TermCheckResult checkTerms(List<Event> history, String role) {
		return HistoryChecker.checkTerms(toLockEvents(history, role));
	}

	/** The events the checker judges. */
	public static List<LockEvent> toLockEvents(List<Event> history, String role) {
		java.util.Map<Long, String> writers = new java.util.HashMap<>();
		for (Event e : history) {
			if (e.lockPath().equals(role) && (e.is("ok", "write") || e.is("fail", "write") || e.is("ok", "check"))) {
				writers.putIfAbsent(e.token(), e.process());
			}
		}
		List<LockEvent> events = new ArrayList<>();
		for (Event e : history) {
			if (!e.lockPath().equals(role)) {
				continue;
			}
			Type type = null;
			String holder = e.process();
			if (e.is("term", "granted")) {
				type = Type.TERM_GRANTED;
			}
			else if (e.is("term", "revoked")) {
				type = Type.TERM_REVOKED;
			}
			else if (e.process().equals("register") && e.type().equals("write")) {
				type = e.f().equals("rejected") ? Type.WRITE_REFUSED : Type.WRITE_ACCEPTED;
				holder = writers.getOrDefault(e.token(), "unknown-writer");
			}
			if (type != null) {
				events.add(new LockEvent(e.nanos(), holder, e.thread(), type, role, LockMode.EXCLUSIVE, e.token(),
						e.detail()));
			}
		}
		return events;
	}

}
