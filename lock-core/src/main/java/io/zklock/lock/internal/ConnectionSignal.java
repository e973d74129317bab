package io.zklock.lock.internal;

/** What the {@link SessionGuard} tells waiting acquires and releases of the connection. */
enum ConnectionSignal {

	/** Not connected any more (SUSPENDED, or an error state of the policy). */
	DISCONNECTED,

	/** Connected again (same session or a new one). */
	RECONNECTED,

	/** The session is lost. */
	LOST,

	/** The client is closing. */
	CLOSED

}
