package io.zklock.lock;

import java.time.Instant;
import java.util.function.Consumer;

/**
 * A lock acquired through {@link ILockByCurator}: one hold of one lock node.
 *
 * <p>
 * Release it exactly once, with {@link #release()} or {@link #close()} (so it fits
 * try-with-resources); further calls do nothing. A call-owned handle (see {@link HoldOwner})
 * may be released from any thread, which asynchronous code needs. Reentrant acquires of a
 * thread-owned hold by the same thread on the same lock path return separate handles over the
 * same lock node and fencing token; the node is deleted when the last of them is released.
 *
 * <p>
 * Implementations are thread-safe.
 */
public interface LockHandle extends AutoCloseable {

	/**
	 * The lock path this handle holds.
	 * @return the lock path relative to the lock root, without a leading {@code '/'}, for
	 * example {@code "orders/42"}
	 */
	String lockPath();

	/**
	 * The lock's name for metrics and logs: a label of bounded cardinality.
	 * @return the annotation's path or the name the caller declared, else the first segment
	 * of the lock path, for example {@code "orders"}
	 */
	String lockName();

	/**
	 * The full ZooKeeper path of the lock node, inside the client's namespace.
	 * @return for example {@code "/locks/orders/42/_c_5e1…-lock-0000000007"}
	 */
	String nodePath();

	/**
	 * Who owns the hold behind this handle.
	 * @return {@link HoldOwner#THREAD} or {@link HoldOwner#CALL}
	 */
	HoldOwner owner();

	/**
	 * The mode of the lock node behind this handle. A read acquire by a thread that already
	 * holds the write lock on the same path shares that write node, so it reports
	 * {@link LockMode#WRITE}.
	 * @return the lock node's mode
	 */
	LockMode mode();

	/**
	 * The fencing token: a ZooKeeper transaction id (zxid) that is this grant's alone. It is the
	 * zxid of the evidence the grant was decided on when that evidence is the grant's alone: the
	 * lock node's {@code czxid} when nothing changed the lock path's children between its create
	 * and the listing that showed it unblocked (a lock that was free when asked for, usually), or
	 * the release of the exclusive node it waited for; otherwise the zxid of a write of its own
	 * lock node (a reader that waited, a waiter whose blocker gave up, ended with its session or
	 * was a Curator peer's), or, with local handoff, of the handoff write that handed it the node.
	 * It is at least the lock node's {@code czxid}. Tokens are unique across the whole ensemble, on
	 * one lock path and across lock paths, and they follow real time across lock paths: a grant
	 * whose acquire began after another grant had returned carries the larger token. So a resource
	 * that refuses writes carrying a token smaller than one it has seen (even one high-water mark
	 * kept for several locks) stays safe when a paused holder wakes up after losing its lock
	 * (Kleppmann, "How to do distributed locking", 2016; Chubby's sequencers). Why:
	 * docs/lock-protocol.md, "The fencing token".
	 * @return the fencing token, a positive ZooKeeper transaction id
	 */
	long fencingToken();

	/**
	 * When this process got the lock node (the first, non-reentrant acquire).
	 * @return the instant of the grant
	 */
	Instant acquiredAt();

	/**
	 * Whether this handle still holds the lock: not released, not in doubt, not lost. Turns
	 * false within the client's notice of a suspended connection (standard error policy) or a
	 * lost session.
	 * @return {@code true} while {@link #state()} is {@link LockState#HELD}
	 */
	boolean isHeld();

	/**
	 * Where this handle stands: held, in doubt (connection suspended), lost, or released.
	 * @return the current state
	 * @see LockState
	 */
	LockState state();

	/**
	 * Calls {@code listener} each time this lock stops being {@link LockState#HELD} before its
	 * release: put in doubt by a suspended connection, or lost with the session. Called on a
	 * Curator thread; keep it short and never block. If the lock is already in doubt or lost,
	 * the listener is called at once on the calling thread. The listener does not keep this handle
	 * reachable (it gets the handle as its argument: do not capture the handle in it), so a handle
	 * dropped unreleased is still reported as a leak
	 * ({@link LockEngine.Builder#leakDetection(boolean, java.time.Duration)}); once it is unreachable,
	 * its listeners are not called any more.
	 * @param listener receives this handle; read {@link #state()} to tell doubt from loss
	 * @return a callback that unregisters the listener
	 */
	Runnable onLost(Consumer<LockHandle> listener);

	/**
	 * Ends the holder thread's ownership of this thread-owned handle but keeps the lock, for a
	 * release later from any thread, such as a release delayed past the end of the work. From
	 * then on {@link #owner()} is {@link HoldOwner#CALL}. Once no other open thread-owned
	 * handle of the same thread and lock path remains (an outer reentrant hold), the thread no
	 * longer holds the lock: {@link ILockByCurator#isHeldByCurrentThread(String)} is
	 * {@code false} there, and a thread-owned acquire of the lock path on that thread queues
	 * behind this handle's lock node like any other waiter instead of joining it. The lock node
	 * stays until this handle, and every other handle of the node, is released. Does nothing
	 * for a call-owned or released handle. Thread-safe; never calls ZooKeeper.
	 * @return this handle
	 * @throws UnsupportedOperationException if this implementation cannot detach a
	 * thread-owned handle (zklock's own can)
	 */
	default LockHandle detachFromThread() {
		if (owner() == HoldOwner.CALL || state() == LockState.RELEASED) {
			return this;
		}
		throw new UnsupportedOperationException(getClass().getName() + " cannot detach a thread-owned handle");
	}

	/**
	 * Releases this hold. Deletes the lock node if no other reentrant hold of the same thread
	 * remains, waiting for ZooKeeper's reply only while connected: with the connection
	 * suspended or lost it returns at once and the delete goes on in the background. Never
	 * throws for ZooKeeper failures; the result says what happened.
	 * @return what the release found and did
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
