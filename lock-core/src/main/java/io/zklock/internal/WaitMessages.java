package io.zklock.internal;

import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * The message of a wait for a lock or a permit that ran out, alike for the lock API and the
 * annotation: a wait that ran out while the client was not connected says so and since when,
 * since such a time-out says nothing about the lock's holders and would otherwise read exactly
 * like contention; otherwise it says what the wait waited for, where that is known. Thread-safe
 * (stateless).
 */
public final class WaitMessages {

	private WaitMessages() {
	}

	/**
	 * The message of a wait that ran out.
	 * @param message what could not be acquired within what wait, such as
	 * {@code "Could not acquire the EXCLUSIVE lock on 'orders/42' within 5s"}
	 * @param disconnectedSince when the client's connection went away, or {@code null} if it was
	 * connected
	 * @param waitedFor what the wait waited for, or {@code null} if unknown: appended as
	 * {@code ": it waited for …"} (a wait that ran out for want of a connection says that instead)
	 * @return the message
	 */
	public static String ranOut(String message, @Nullable Instant disconnectedSince, @Nullable String waitedFor) {
		if (disconnectedSince == null) {
			return (waitedFor != null) ? message + ": it waited for " + waitedFor : message;
		}
		long forMillis = Math.max(0, Duration.between(disconnectedSince, Instant.now()).toMillis());
		return message + ": the ZooKeeper client was not connected (since " + disconnectedSince + ", " + forMillis
				+ "ms when the wait ran out): the wait ran out for the connection, not for the lock's holders. Check "
				+ "that the ensemble can be reached.";
	}

}
