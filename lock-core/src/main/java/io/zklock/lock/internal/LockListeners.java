package io.zklock.lock.internal;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import io.zklock.lock.event.LockListener;
import io.zklock.lock.event.LockTarget;
import io.zklock.lock.ReleaseResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link LockListener}s of one engine: calls each in registration order and logs,
 * never rethrows, what a listener throws. With none registered, an event costs a check and
 * nothing else (no call is built for it). Thread-safe.
 */
final class LockListeners {

	private static final Logger logger = LoggerFactory.getLogger(LockListeners.class);

	private final List<LockListener> listeners = new CopyOnWriteArrayList<>();

	void add(LockListener listener) {
		if (listener == null) {
			throw new IllegalArgumentException("Lock listener must not be null");
		}
		this.listeners.add(listener);
	}

	void acquiring(LockTarget lock) {
		if (this.listeners.isEmpty()) {
			return;
		}
		publish(lock, "onAcquiring", (listener) -> listener.onAcquiring(lock));
	}

	void acquired(LockTarget lock, long fencingToken, Duration waited) {
		if (this.listeners.isEmpty()) {
			return;
		}
		publish(lock, "onAcquired", (listener) -> listener.onAcquired(lock, fencingToken, waited));
	}

	void timeout(LockTarget lock, Duration waited) {
		if (this.listeners.isEmpty()) {
			return;
		}
		publish(lock, "onTimeout", (listener) -> listener.onTimeout(lock, waited));
	}

	void failed(LockTarget lock, Duration waited, Throwable error) {
		if (this.listeners.isEmpty()) {
			return;
		}
		publish(lock, "onFailed", (listener) -> listener.onFailed(lock, waited, error));
	}

	void releasing(LockTarget lock, long fencingToken) {
		if (this.listeners.isEmpty()) {
			return;
		}
		publish(lock, "onReleasing", (listener) -> listener.onReleasing(lock, fencingToken));
	}

	void released(LockTarget lock, long fencingToken, Duration heldFor, ReleaseResult result) {
		if (this.listeners.isEmpty()) {
			return;
		}
		publish(lock, "onReleased", (listener) -> listener.onReleased(lock, fencingToken, heldFor, result));
	}

	void inDoubt(LockTarget lock, long fencingToken, Duration heldFor) {
		if (this.listeners.isEmpty()) {
			return;
		}
		publish(lock, "onInDoubt", (listener) -> listener.onInDoubt(lock, fencingToken, heldFor));
	}

	void confirmed(LockTarget lock, long fencingToken, Duration inDoubtFor) {
		if (this.listeners.isEmpty()) {
			return;
		}
		publish(lock, "onConfirmed", (listener) -> listener.onConfirmed(lock, fencingToken, inDoubtFor));
	}

	void lost(LockTarget lock, long fencingToken, Duration heldFor) {
		if (this.listeners.isEmpty()) {
			return;
		}
		publish(lock, "onLost", (listener) -> listener.onLost(lock, fencingToken, heldFor));
	}

	void leaked(LockTarget lock, long fencingToken, Duration heldFor) {
		if (this.listeners.isEmpty()) {
			return;
		}
		publish(lock, "onLeaked", (listener) -> listener.onLeaked(lock, fencingToken, heldFor));
	}

	void holdExceeded(LockTarget lock, long fencingToken, Duration heldFor, Duration bound, boolean released) {
		if (this.listeners.isEmpty()) {
			return;
		}
		publish(lock, "onHoldExceeded",
				(listener) -> listener.onHoldExceeded(lock, fencingToken, heldFor, bound, released));
	}

	private void publish(LockTarget lock, String event, Consumer<LockListener> call) {
		for (LockListener listener : this.listeners) {
			try {
				call.accept(listener);
			}
			catch (RuntimeException ex) {
				logger.warn("Lock listener {} failed in {} for '{}'", listener, event, lock.lockPath(), ex);
			}
		}
	}

}
