package io.zklock.lock;

/**
 * Observes locks of a {@link LockCoordinator}, for metrics, tracing or logs. Called on the
 * thread that acquired or released the lock, or on Curator's event thread for
 * {@link LockEvent.Type#LOST}; keep it fast and do not block. An exception thrown by a
 * listener is logged and otherwise ignored.
 */
@FunctionalInterface
public interface LockListener {

	/**
	 * Receives one event.
	 * @param event what happened
	 */
	void onEvent(LockEvent event);

}
