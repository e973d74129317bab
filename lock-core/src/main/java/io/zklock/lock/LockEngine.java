package io.zklock.lock;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

/**
 * The lock engine that {@link ExclusiveLockByCurator}, {@link SharedLockByCurator} and
 * {@link SemaphoreByCurator} delegate to: it queues and deletes lock nodes, keeps the holds of
 * one Curator client, follows its session and tells {@link LockListener}s. Implemented by
 * zklock's engine and obtained from {@link io.zklock.lock.spi.LockCoordinator} (a Spring bean
 * under the auto-configuration); applications inject {@link ILockByCurator} instead, and need
 * this type only to share one engine between the beans or to register a listener.
 *
 * <p>
 * The API reaches the engine without depending on it: the constructors that take a client,
 * such as {@code new ExclusiveLockByCurator(client, "/locks")}, look up a {@link Provider}
 * with {@link java.util.ServiceLoader}, the JDK's documented way for an API to find its
 * implementation at run time (the JDK's own {@code java.nio.file.spi.FileSystemProvider} and
 * JDBC drivers are found the same way). zklock-core registers its provider in
 * {@code META-INF/services}.
 *
 * <p>
 * Implementations are thread-safe.
 */
public interface LockEngine extends AutoCloseable {

	/**
	 * Acquires a lock as the request says; see {@link ILockByCurator#tryAcquire(LockRequest)},
	 * which delegates here.
	 * @param request the lock path, mode, wait, owner and name
	 * @return the handle, or empty if the wait ran out (no lock node is then left behind)
	 * @throws IllegalArgumentException if the lock path is invalid
	 * @throws IllegalStateException if the current thread would wait for its own
	 * thread-owned hold
	 * @throws LockAcquisitionException if interrupted (the interrupt flag is set again), if
	 * ZooKeeper fails, or if the current thread's thread-owned hold is in doubt or lost
	 */
	Optional<LockHandle> acquire(LockRequest request);

	/**
	 * The lock nodes this engine holds now, oldest first.
	 * @return a snapshot, one entry per lock node (reentrant holds are counted in it)
	 */
	List<HeldLock> getHeldLocks();

	/**
	 * Since when this engine's client is not connected to the ensemble: while it is not, no
	 * lock node can be created or watched, and waits run out for the connection rather than
	 * for the lock's holders.
	 * @return the instant the connection went away (at the latest, when the engine began to
	 * follow the client), or empty while connected or if the engine does not know
	 */
	default Optional<Instant> disconnectedSince() {
		return Optional.empty();
	}

	/**
	 * Registers a listener for the events of all locks of this engine.
	 * @param listener the listener
	 * @throws IllegalArgumentException if {@code listener} is {@code null}
	 */
	void addListener(LockListener listener);

	/**
	 * Takes one of {@code permits} permits of the semaphore on {@code path}; see
	 * {@link SemaphoreByCurator}, which delegates here.
	 * @param path the semaphore path, such as {@code "reports"}, relative to the lock root
	 * @param permits the semaphore's permit count, at least 1, the same in every process
	 * @param maxWait the longest wait, {@link Duration#ZERO} to take a free permit or give
	 * up; {@code null} to wait as long as it takes
	 * @return the lease, or empty if the wait ran out (nothing is left behind)
	 * @throws IllegalArgumentException if the permit count or the path is invalid
	 * @throws LockAcquisitionException if interrupted (the interrupt flag is set again) or
	 * if ZooKeeper fails
	 */
	Optional<PermitLease> acquirePermit(String path, int permits, @Nullable Duration maxWait);

	/**
	 * Stops following the client's connection state. Held locks and leases stay as they are;
	 * release them before closing the client.
	 */
	@Override
	void close();

	/**
	 * Makes engines for the constructors that take a Curator client. zklock-core provides
	 * one, found with {@link java.util.ServiceLoader}; there is no need to implement it.
	 */
	interface Provider {

		/**
		 * Creates an engine with its own session guard over a client.
		 * @param client a started Curator client; its namespace, if any, contains the lock root
		 * @param rootPath the lock root, such as {@code "/locks"}
		 * @return the engine; the caller closes it
		 * @throws IllegalArgumentException if the client is {@code null} or the lock root is
		 * not a valid ZooKeeper path
		 */
		LockEngine create(CuratorFramework client, String rootPath);

	}

}
