package io.zklock.lock;

import java.time.Instant;
import java.util.function.Consumer;

/**
 * One permit of a distributed semaphore, taken with {@link SemaphoreByCurator}. Release it
 * exactly once ({@link #release()} or {@link #close()}); further calls do nothing. May be
 * released from any thread. Thread-safe.
 */
public interface PermitLease extends AutoCloseable {

	/**
	 * The semaphore's path.
	 * @return the path relative to the lock root, such as {@code "reports"}
	 */
	String path();

	/**
	 * How many permits the semaphore has in all (its maximum number of leases).
	 * @return the permit count, at least 1
	 */
	int permits();

	/**
	 * The name of this lease's node, as Curator's {@code Lease.getNodeName()} gives it.
	 * @return for example {@code "_c_5e1…-lease-0000000003"}
	 */
	String nodeName();

	/**
	 * When the lease was granted.
	 * @return the instant of the grant
	 */
	Instant acquiredAt();

	/**
	 * Whether this lease is still held: not released, not in doubt, not lost. Like a lock's,
	 * it turns false when the connection is suspended (standard error policy) or the session
	 * is lost, and true again only once ownership was confirmed after a reconnect.
	 * @return {@code true} while {@link #state()} is {@link LockState#HELD}
	 */
	boolean isHeld();

	/**
	 * Where this lease stands: held, in doubt, lost, or released.
	 * @return the current state
	 */
	LockState state();

	/**
	 * Calls {@code listener} each time this lease stops being {@link LockState#HELD} before its
	 * release (a suspended connection or a lost session), on the thread that follows the
	 * connection state; keep it short and never block. If the lease is already in doubt or lost,
	 * the listener is called at once on the calling thread.
	 * @param listener receives this lease
	 * @return a callback that unregisters the listener
	 */
	Runnable onLost(Consumer<PermitLease> listener);

	/**
	 * Returns the permit: deletes the lease node with a guaranteed delete.
	 * @return {@link ReleaseResult#RELEASED}, {@link ReleaseResult#LOST} if the lease node was
	 * already gone (its session expired), {@link ReleaseResult#CLEANUP_PENDING} if the delete
	 * is retried in the background, or {@link ReleaseResult#ALREADY_RELEASED}
	 */
	ReleaseResult release();

	/**
	 * Same as {@link #release()}, ignoring its result.
	 */
	@Override
	default void close() {
		release();
	}

}
