package io.zklock.autoconfigure;

import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.zklock.lock.event.LockListener;
import io.zklock.lock.event.LockTarget;

import org.springframework.beans.factory.ObjectProvider;

/**
 * Tells the application's {@link LockListener} beans (the meters' among them) when a cancelled
 * annotated call's locks are released after {@code zklock.hold-after-cancel}
 * ({@link LockListener#onHoldExceeded} with {@code released} {@code true}; a hold past its
 * {@code holdAtMost} is told by the engine, which times it): the advisor is
 * created before those beans exist, so they are looked up at each event, in order. An exception
 * one of them throws is logged and does not keep the others from hearing the event.
 */
final class HoldEventRelay implements LockListener {

	private static final Log logger = LogFactory.getLog(HoldEventRelay.class);

	private final ObjectProvider<LockListener> listeners;

	HoldEventRelay(ObjectProvider<LockListener> listeners) {
		this.listeners = listeners;
	}

	@Override
	public void onHoldExceeded(LockTarget lock, long fencingToken, Duration heldFor, Duration bound,
			boolean released) {
		this.listeners.orderedStream().forEach((listener) -> {
			try {
				listener.onHoldExceeded(lock, fencingToken, heldFor, bound, released);
			}
			catch (RuntimeException ex) {
				logger.warn("Lock listener " + listener + " failed in onHoldExceeded for '" + lock.lockPath() + "'", ex);
			}
		});
	}

}
