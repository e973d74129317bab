package io.zklock.lock.spi;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.HeldLock;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LocalHandoff;
import io.zklock.lock.LockAcquisitionException;
import io.zklock.lock.LockEngine;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockListener;
import io.zklock.lock.LockRequest;
import io.zklock.lock.PermitLease;
import io.zklock.lock.SemaphoreByCurator;
import io.zklock.lock.SharedLockByCurator;
import io.zklock.lock.internal.LockCore;
import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

/**
 * zklock's {@link LockEngine}, the front door of the engine: the one object behind
 * {@link ExclusiveLockByCurator}, {@link SharedLockByCurator} and {@link SemaphoreByCurator}. It
 * resolves lock paths against its {@link LockRoot} and hands them to the machinery, which
 * acquires and releases lock nodes, keeps holds and their thread-owned reentrancy, follows the
 * session (doubt, loss, confirmation) and tells {@link LockListener}s. Share one instance per
 * client so that both beans, and the semaphores, see the same holds; the auto-configuration
 * makes it a bean.
 *
 * <p>
 * Thread-safe.
 */
public final class LockCoordinator implements LockEngine {

	private final CuratorFramework client;

	private final LockRoot root;

	private final LockCore core;

	private final LocalHandoff localHandoff;

	/**
	 * Creates a coordinator whose lock nodes carry no data, with local handoff as
	 * {@link LocalHandoff#defaults()} says (off).
	 * @param client a started Curator client; its namespace, if any, contains the lock root
	 * @param rootPath the lock root, such as {@code "/locks"}
	 * @throws IllegalArgumentException if the lock root is not a valid ZooKeeper path
	 */
	public LockCoordinator(CuratorFramework client, String rootPath) {
		this(client, rootPath, new byte[0]);
	}

	/**
	 * Creates a coordinator with local handoff as {@link LocalHandoff#defaults()} says (off).
	 * @param client a started Curator client; its namespace, if any, contains the lock root
	 * @param rootPath the lock root, such as {@code "/locks"}
	 * @param nodeData the bytes every lock node carries, for example an instance id; never
	 * {@code null}
	 * @throws IllegalArgumentException if the lock root is not a valid ZooKeeper path
	 */
	public LockCoordinator(CuratorFramework client, String rootPath, byte[] nodeData) {
		this(client, rootPath, nodeData, LocalHandoff.defaults());
	}

	/**
	 * Creates a coordinator with a local-handoff setting: whether a held {@code EXCLUSIVE} or
	 * {@code WRITE} lock node is handed to this coordinator's next waiter for the same lock path
	 * instead of being deleted (lock cohorting), and the bounds of such a chain.
	 * @param client a started Curator client; its namespace, if any, contains the lock root
	 * @param rootPath the lock root, such as {@code "/locks"}
	 * @param nodeData the bytes every lock node carries, for example an instance id; never
	 * {@code null}
	 * @param localHandoff the local-handoff setting, such as {@link LocalHandoff#on()}
	 * @throws IllegalArgumentException if the lock root is not a valid ZooKeeper path, or
	 * {@code nodeData} or {@code localHandoff} is {@code null}
	 */
	public LockCoordinator(CuratorFramework client, String rootPath, byte[] nodeData, LocalHandoff localHandoff) {
		if (nodeData == null) {
			throw new IllegalArgumentException("'nodeData' must not be null; pass an empty array for none");
		}
		if (localHandoff == null) {
			throw new IllegalArgumentException("'localHandoff' must not be null; pass LocalHandoff.off() for none");
		}
		this.root = new LockRoot(client, rootPath);
		this.client = client;
		this.core = new LockCore(client, nodeData, localHandoff);
		this.localHandoff = localHandoff;
	}

	/**
	 * Stops following the client's connection state and timing hold bounds. Held locks stay as
	 * they are; release them before closing the client.
	 */
	@Override
	public void close() {
		this.core.close();
	}

	/**
	 * Grants no lock and no permit from now on, for an orderly shutdown: every new acquire
	 * fails at once with a {@link LockAcquisitionException} that gives {@code reason}; one
	 * already waiting fails the same way when its turn comes, and gives the lock up at once, so
	 * that the next waiter in the queue (of another process) gets it. A thread
	 * re-entering a lock it holds still gets it, and held locks stay held until released, so
	 * that running work can finish. Not undone: a coordinator that stopped granting stays so.
	 * @param reason why, for the exception's message, such as "the application is shutting down"
	 * @throws IllegalArgumentException if {@code reason} is {@code null} or blank
	 */
	public void stopGranting(String reason) {
		if (reason == null || reason.isBlank()) {
			throw new IllegalArgumentException("'reason' must not be blank: it is what a refused acquire says");
		}
		this.core.stopGranting(reason);
	}

	/**
	 * The Curator client the locks use.
	 * @return the client
	 */
	public CuratorFramework getClient() {
		return this.client;
	}

	/**
	 * The local-handoff setting this coordinator was made with.
	 * @return the setting
	 */
	public LocalHandoff getLocalHandoff() {
		return this.localHandoff;
	}

	/**
	 * The lock root that lock paths are relative to.
	 * @return the lock root
	 */
	public LockRoot getRoot() {
		return this.root;
	}

	@Override
	public Optional<Instant> disconnectedSince() {
		return this.core.disconnectedSince();
	}

	/**
	 * Registers a listener for the events of all locks of this coordinator.
	 * @param listener the listener
	 * @throws IllegalArgumentException if {@code listener} is {@code null}
	 */
	@Override
	public void addListener(LockListener listener) {
		this.core.addListener(listener);
	}

	/**
	 * The lock nodes this coordinator holds now, oldest first.
	 * @return a snapshot, one entry per lock node (reentrant holds are counted in it)
	 */
	@Override
	public List<HeldLock> getHeldLocks() {
		return this.core.heldLocks();
	}

	/**
	 * Acquires a lock as the request says; see {@link ILockByCurator#tryAcquire(LockRequest)}.
	 * @param request the lock path, mode, wait, owner and name
	 * @return the handle, or empty if the wait ran out (no lock node is then left behind)
	 * @throws IllegalArgumentException if the lock path is invalid
	 * @throws IllegalStateException if the current thread would wait for its own
	 * thread-owned hold
	 * @throws LockAcquisitionException if interrupted (the interrupt flag is set again), if
	 * ZooKeeper fails, or if the current thread's thread-owned hold is in doubt or lost
	 */
	@Override
	public Optional<LockHandle> acquire(LockRequest request) {
		String lockPath = this.root.relative(request.path());
		String basePath = this.root.zooKeeperPath(lockPath);
		return this.core.acquire(request, lockPath, basePath);
	}

	/**
	 * Takes one of {@code permits} permits of the semaphore on {@code path}, on Curator's
	 * {@code InterProcessSemaphoreV2}; see {@link SemaphoreByCurator}.
	 * @param path the semaphore path, such as {@code "reports"}
	 * @param permits the semaphore's permit count, at least 1, the same in every process
	 * @param maxWait the longest wait, {@link Duration#ZERO} to take a free permit or give
	 * up; {@code null} to wait as long as it takes
	 * @return the lease, or empty if the wait ran out (nothing is left behind)
	 * @throws IllegalArgumentException if the permit count or the path is invalid
	 * @throws LockAcquisitionException if interrupted (the interrupt flag is set again) or
	 * if ZooKeeper fails
	 */
	@Override
	public Optional<PermitLease> acquirePermit(String path, int permits, @Nullable Duration maxWait) {
		if (permits < 1) {
			throw new IllegalArgumentException("Permit count " + permits + " for semaphore '" + path
					+ "' is invalid: a semaphore needs at least 1 permit");
		}
		String relative = this.root.relative(path);
		return this.core.acquirePermit(relative, this.root.zooKeeperPath(relative), permits, maxWait);
	}

}
