package io.zklock.lock.internal;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.zklock.lock.LockMode;
import io.zklock.lock.ReleaseResult;
import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

/**
 * The ZooKeeper side of locking for one client: queues lock nodes ({@link AcquireAttempt}) and
 * deletes them. Callers park on {@code java.util.concurrent} primitives while ZooKeeper calls
 * run in Curator's background, so a waiting virtual thread never pins its carrier; on a platform
 * thread the ordinary cycle's listing and release are synchronous calls whose replies the client's
 * I/O thread hands to the caller directly ({@link CallerThread}). Thread-safe.
 */
final class LockNodeQueue {

	/**
	 * How long a wait that ran out before the queue was looked at (a zero wait, say) waits for
	 * that first look: its create and listing, one round trip on a connected client (a few for a
	 * new lock path's parents). A first look slower than that means a server too slow to answer
	 * the wait, which then gives up.
	 */
	private static final Duration FIRST_LOOK_BOUND = Duration.ofSeconds(1);


	private final CuratorFramework client;

	private final byte[] nodeData;

	private final SessionGuard guard;

	private final NamespaceGate namespace;

	/** The client as the acquires use it, shared by all of them. */
	private final QueueClient waiters;

	LockNodeQueue(CuratorFramework client, byte[] nodeData, SessionGuard guard, NamespaceGate namespace) {
		this.client = client;
		this.nodeData = nodeData.clone();
		this.guard = guard;
		this.namespace = namespace;
		this.waiters = new QueueClient(client, guard, namespace);
	}

	/**
	 * Queues for the lock at {@code basePath} and waits for it, until the deadline plus, if the
	 * queue was not looked at by then, that first look (docs/lock-protocol.md, "A wait that runs
	 * out"). Giving up sends the deletion of its node and the removal of its watch, and returns
	 * without waiting for their replies.
	 * @param interruptible whether an interrupt ends the wait; if not, the waiter keeps its
	 * place and the interrupt flag is set again on return
	 * @return the granted node, or {@code null} if the deadline passed first, also during a
	 * ZooKeeper call (its node is being deleted)
	 * @throws InterruptedException if interrupted while {@code interruptible} (its node is being
	 * deleted)
	 * @throws Exception if ZooKeeper fails (its node is being deleted)
	 */
	@Nullable GrantedNode acquire(String basePath, LockMode mode, Deadline deadline, boolean interruptible)
			throws Exception {
		LockNodeCalls calls = new LockNodeCalls(this.client, basePath, mode, this.nodeData);
		AcquireAttempt attempt = new AcquireAttempt(this.waiters, calls, deadline);
		Runnable unsubscribe = this.guard.subscribe((signal) -> {
			if (signal == ConnectionSignal.CLOSED) {
				attempt.fail(new IllegalStateException("The Curator client was closed"));
			}
			else {
				attempt.onSignal(signal);
			}
		});
		Runnable unsubscribeNamespace = this.namespace.whenOpen(() -> attempt.onSignal(ConnectionSignal.RECONNECTED));
		boolean interrupted = false;
		GrantedNode granted = null;
		try {
			// a platform thread without a deadline reads the pipelined listing's reply itself; a
			// synchronous call cannot end at a deadline (docs/lock-protocol.md, "Who waits for a reply")
			boolean callerLists = deadline.isInfinite() && this.waiters.isConnected() && CallerThread.mayWaitForReplies();
			attempt.start(callerLists);
			if (callerLists) {
				attempt.listOnCaller();
			}
			while (true) {
				try {
					granted = await(attempt, deadline);
					return granted;
				}
				catch (InterruptedException ex) {
					if (interruptible) {
						granted = attempt.abandon();
						if (granted != null) {
							interrupted = true;
							return granted;
						}
						throw ex;
					}
					// keep the place in the queue; the flag is set again on return
					interrupted = true;
				}
			}
		}
		finally {
			if (granted == null) {
				// the node and its watch go in the background: the caller has its answer now
				attempt.abandon();
			}
			unsubscribe.run();
			unsubscribeNamespace.run();
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private @Nullable GrantedNode await(AcquireAttempt attempt, Deadline deadline) throws Exception {
		try {
			if (deadline.isInfinite()) {
				return attempt.outcome().get();
			}
			try {
				return attempt.outcome().get(Math.max(0, deadline.remainingNanos()), TimeUnit.NANOSECONDS);
			}
			catch (TimeoutException ex) {
				if (attempt.hasLooked() || !this.guard.isConnected()) {
					return attempt.abandon();
				}
				// the wait ran out before the queue was looked at: the first look is one round trip
				// away, and the round holds or gives up right after it
				return attempt.outcome().get(FIRST_LOOK_BOUND.toNanos(), TimeUnit.NANOSECONDS);
			}
		}
		catch (TimeoutException ex) {
			return attempt.abandon();
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof Exception cause) {
				throw cause;
			}
			throw ex;
		}
	}

	/**
	 * Deletes a released lock node with Curator's guaranteed delete and waits for the reply,
	 * but never while disconnected: then the delete goes on in the background and the release
	 * returns at once.
	 * @return {@link ReleaseResult#RELEASED}, {@link ReleaseResult#LOST} if the node was
	 * already gone, or {@link ReleaseResult#CLEANUP_PENDING} if the delete goes on in the
	 * background (Curator retries it until it succeeds or the session ends)
	 */
	ReleaseResult delete(String nodePath) {
		return NodeDeletion.delete(this.client, this.guard, nodePath);
	}

	/**
	 * Releases a granted lock node after holding: an exclusive ({@code EXCLUSIVE} or
	 * {@code WRITE}) node with the release that proves itself to the next waiter
	 * ({@link HandoffRelease}), a reader's with {@link #delete(String)}.
	 * @return as {@link #delete(String)}
	 */
	ReleaseResult release(String nodePath, LockMode mode) {
		if (mode == LockMode.READ) {
			return delete(nodePath);
		}
		return HandoffRelease.release(this.client, this.guard, nodePath);
	}

	/** The blocker a waiter of this engine last saw on the lock path at {@code basePath}, if any. */
	Optional<BlockerSeen> lastBlocker(String basePath) {
		return this.waiters.lastBlocker(basePath);
	}

	/** Deletes an abandoned or foreign node in the background, never blocking; {@code null} is ignored. */
	void deleteInBackground(@Nullable String nodePath) {
		this.waiters.deleteInBackground(nodePath);
	}

}
