package io.zklock.lock;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.zklock.lock.event.LockListener;
import io.zklock.lock.event.LockTarget;

import org.jspecify.annotations.Nullable;

/** A {@link LockListener} that records every event, for assertions. */
public final class RecordingListener implements LockListener {

	public enum Type {

		ACQUIRING, ACQUIRED, TIMEOUT, FAILED, RELEASING, RELEASED, IN_DOUBT, CONFIRMED, LOST, LEAKED, HOLD_EXCEEDED

	}

	public record Event(Type type, LockTarget lock, long fencingToken, Duration duration, @Nullable ReleaseResult result,
			@Nullable Throwable error) {

	}

	private final List<Event> events = new CopyOnWriteArrayList<>();

	public List<Event> events() {
		return this.events;
	}

	public List<Type> types() {
		return this.events.stream().map(Event::type).toList();
	}

	@Override
	public void onAcquiring(LockTarget lock) {
		this.events.add(new Event(Type.ACQUIRING, lock, 0, Duration.ZERO, null, null));
	}

	@Override
	public void onAcquired(LockTarget lock, long fencingToken, Duration waited) {
		this.events.add(new Event(Type.ACQUIRED, lock, fencingToken, waited, null, null));
	}

	@Override
	public void onTimeout(LockTarget lock, Duration waited) {
		this.events.add(new Event(Type.TIMEOUT, lock, 0, waited, null, null));
	}

	@Override
	public void onFailed(LockTarget lock, Duration waited, Throwable error) {
		this.events.add(new Event(Type.FAILED, lock, 0, waited, null, error));
	}

	@Override
	public void onReleasing(LockTarget lock, long fencingToken) {
		this.events.add(new Event(Type.RELEASING, lock, fencingToken, Duration.ZERO, null, null));
	}

	@Override
	public void onLeaked(LockTarget lock, long fencingToken, Duration heldFor) {
		this.events.add(new Event(Type.LEAKED, lock, fencingToken, heldFor, null, null));
	}

	@Override
	public void onReleased(LockTarget lock, long fencingToken, Duration heldFor, ReleaseResult result) {
		this.events.add(new Event(Type.RELEASED, lock, fencingToken, heldFor, result, null));
	}

	@Override
	public void onInDoubt(LockTarget lock, long fencingToken, Duration heldFor) {
		this.events.add(new Event(Type.IN_DOUBT, lock, fencingToken, heldFor, null, null));
	}

	@Override
	public void onConfirmed(LockTarget lock, long fencingToken, Duration inDoubtFor) {
		this.events.add(new Event(Type.CONFIRMED, lock, fencingToken, inDoubtFor, null, null));
	}

	@Override
	public void onLost(LockTarget lock, long fencingToken, Duration heldFor) {
		this.events.add(new Event(Type.LOST, lock, fencingToken, heldFor, null, null));
	}

	/** Records the bound that passed as the event's duration. */
	@Override
	public void onHoldExceeded(LockTarget lock, long fencingToken, Duration heldFor, Duration bound,
			boolean released) {
		this.events.add(new Event(Type.HOLD_EXCEEDED, lock, fencingToken, bound, null, null));
	}

}
