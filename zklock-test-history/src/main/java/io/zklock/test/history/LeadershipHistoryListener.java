package io.zklock.test.history;

import io.zklock.leadership.LeadershipListener;
import io.zklock.leadership.RevocationReason;
import io.zklock.leadership.Term;
import io.zklock.lock.LockMode;
import io.zklock.test.history.LockEvent.Type;

/**
 * Records one holder's terms into a {@link LockHistory}: {@link Type#TERM_GRANTED} and
 * {@link Type#TERM_REVOKED} (with the reason as detail), the role as lock path; made by
 * {@link LockHistory#leadershipListener(String)}. Listeners run after the state changed, so the
 * stamps are a little late: they bound the term from inside.
 */
final class LeadershipHistoryListener implements LeadershipListener {

	private final LockHistory history;

	private final String holder;

	LeadershipHistoryListener(LockHistory history, String holder) {
		this.history = history;
		this.holder = holder;
	}

	@Override
	public void onGranted(Term term) {
		this.history.record(this.holder, Type.TERM_GRANTED, term.role(), LockMode.EXCLUSIVE, term.fencingToken(), "");
	}

	@Override
	public void onRevoked(Term term, RevocationReason reason) {
		this.history.record(this.holder, Type.TERM_REVOKED, term.role(), LockMode.EXCLUSIVE, term.fencingToken(),
				reason.name());
	}

}
