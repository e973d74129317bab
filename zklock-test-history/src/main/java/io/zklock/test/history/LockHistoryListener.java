package io.zklock.test.history;

import java.time.Duration;

import io.zklock.lock.ReleaseResult;
import io.zklock.lock.event.LockListener;
import io.zklock.lock.event.LockTarget;
import io.zklock.test.history.LockEvent.Type;

/**
 * Records one holder's lock events into a {@link LockHistory}; made by
 * {@link LockHistory#listener(String)}.
 */
final class LockHistoryListener implements LockListener {

	private final LockHistory history;

	private final String holder;

	LockHistoryListener(LockHistory history, String holder) {
		this.history = history;
		this.holder = holder;
	}

	@Override
	public void onAcquiring(LockTarget lock) {
		record(Type.ACQUIRING, lock, 0, "");
	}

	@Override
	public void onAcquired(LockTarget lock, long fencingToken, Duration waited) {
		record(Type.GRANTED, lock, fencingToken, "");
	}

	@Override
	public void onTimeout(LockTarget lock, Duration waited) {
		record(Type.FAILED, lock, 0, "timeout");
	}

	@Override
	public void onFailed(LockTarget lock, Duration waited, Throwable error) {
		record(Type.FAILED, lock, 0, error.getClass().getSimpleName());
	}

	@Override
	public void onReleasing(LockTarget lock, long fencingToken) {
		record(Type.RELEASING, lock, fencingToken, "");
	}

	@Override
	public void onReleased(LockTarget lock, long fencingToken, Duration heldFor, ReleaseResult result) {
		record(Type.RELEASED, lock, fencingToken, result.name());
	}

	@Override
	public void onLost(LockTarget lock, long fencingToken, Duration heldFor) {
		record(Type.LOST, lock, fencingToken, "");
	}

	private void record(Type type, LockTarget lock, long fencingToken, String detail) {
		this.history.record(this.holder, type, lock.lockPath(), lock.mode(), fencingToken, detail);
	}

	@Override
	public String toString() {
		return "LockHistory listener of " + this.holder;
	}

}
