package io.zklock.lock;

import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when a lock could not be acquired: the wait ran out, the thread was interrupted
 * while waiting (its interrupt flag is then set again), or ZooKeeper failed. No lock node of
 * the failed attempt is left behind.
 */
public class LockAcquisitionException extends RuntimeException {

	/** The lock path that could not be acquired. */
	private final String lockPath;

	/**
	 * Creates an exception for the given lock path.
	 * @param lockPath the lock path that could not be acquired, relative to the lock root
	 * @param message what went wrong, naming the lock path
	 * @param cause the underlying failure, or {@code null}
	 */
	public LockAcquisitionException(String lockPath, String message, @Nullable Throwable cause) {
		super(message, cause);
		this.lockPath = lockPath;
	}

	/**
	 * Creates an exception for the given lock path.
	 * @param lockPath the lock path that could not be acquired, relative to the lock root
	 * @param message what went wrong, naming the lock path
	 */
	public LockAcquisitionException(String lockPath, String message) {
		this(lockPath, message, null);
	}

	/**
	 * Creates the exception for a wait that ran out. If the client was not connected when it
	 * ran out, the message says so and since when: such a time-out says nothing about the
	 * lock's holders, and would otherwise read exactly like contention.
	 * @param lockPath the lock path that could not be acquired (the first, for several)
	 * @param message what could not be acquired within what wait, such as
	 * {@code "Could not acquire the EXCLUSIVE lock on 'orders/42' within 5s"}
	 * @param disconnectedSince when the client's connection went away, or {@code null} if it
	 * was connected (see {@link LockEngine#disconnectedSince()})
	 * @return the exception
	 */
	public static LockAcquisitionException waitRanOut(String lockPath, String message,
			@Nullable Instant disconnectedSince) {
		return waitRanOut(lockPath, message, disconnectedSince, null);
	}

	/**
	 * Creates the exception for a wait that ran out, saying what it waited for.
	 * @param lockPath the lock path that could not be acquired (the first, for several)
	 * @param message what could not be acquired within what wait, such as
	 * {@code "Could not acquire the EXCLUSIVE lock on 'orders/42' within 5s"}
	 * @param disconnectedSince when the client's connection went away, or {@code null} if it
	 * was connected (see {@link LockEngine#disconnectedSince()})
	 * @param waitedFor what the wait waited for, as {@link LockEngine#explainWait(LockRequest)} says,
	 * or {@code null} if unknown: appended as {@code ": it waited for …"} (a wait that ran out for
	 * want of a connection says that instead)
	 * @return the exception
	 */
	public static LockAcquisitionException waitRanOut(String lockPath, String message,
			@Nullable Instant disconnectedSince, @Nullable String waitedFor) {
		return new LockAcquisitionException(lockPath, waitRanOutMessage(message, disconnectedSince, waitedFor));
	}

	/** The message of {@link #waitRanOut(String, String, Instant, String)}. */
	static String waitRanOutMessage(String message, @Nullable Instant disconnectedSince, @Nullable String waitedFor) {
		if (disconnectedSince == null) {
			return (waitedFor != null) ? message + ": it waited for " + waitedFor : message;
		}
		long forMillis = Math.max(0, Duration.between(disconnectedSince, Instant.now()).toMillis());
		return message + ": the ZooKeeper client was not connected (since " + disconnectedSince + ", " + forMillis
				+ "ms when the wait ran out): the wait ran out for the connection, not for the lock's holders. Check "
				+ "that the ensemble can be reached.";
	}

	/**
	 * The lock path that could not be acquired.
	 * @return the lock path, relative to the lock root, for example {@code "orders/42"}
	 */
	public String getLockPath() {
		return this.lockPath;
	}

}
