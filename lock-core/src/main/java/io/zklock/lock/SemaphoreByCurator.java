package io.zklock.lock;

import java.time.Duration;
import java.util.Optional;

import io.zklock.internal.Durations;

import org.apache.curator.framework.CuratorFramework;

/**
 * Distributed counting semaphores: N permits on one path, shared by every process, on
 * Curator's {@code InterProcessSemaphoreV2} (the semaphore recipe of the Curator
 * documentation: an internal fair mutex queues takers, and a lease node per permit holder
 * counts the permits in use). With one permit it is a non-reentrant mutex whose nodes are
 * those of Curator's {@code InterProcessSemaphoreMutex}: a second acquire waits for the
 * first release, also on the same thread, and the lease may be released from any thread.
 *
 * <p>
 * Leases follow the connection state like locks ({@link PermitLease#isHeld()} turns false when
 * the connection is suspended or the session lost). A zero wait means "no waiting for
 * permits": the try waits briefly for Curator's internal mutex, but gives up as soon as it sees
 * every permit in use. All processes must use the same permit count for one path. Leases are
 * not reentrant. Thread-safe. Curator's recipe waits in {@code synchronized} blocks: on JDK
 * 21–23 a virtual thread waiting for a permit pins its carrier.
 */
public class SemaphoreByCurator implements AutoCloseable {

	private final LockEngine engine;

	private final boolean ownsEngine;

	/**
	 * Creates the semaphores of a lock engine: same client, lock root and session guard as its
	 * locks.
	 * @param engine the engine
	 * @throws IllegalArgumentException if {@code engine} is {@code null}
	 */
	public SemaphoreByCurator(LockEngine engine) {
		this(engine, false);
	}

	/**
	 * Creates semaphores with their own engine and session guard, for use without Spring; close
	 * them when done (that closes their {@link LockEngine}).
	 * @param client a started Curator client
	 * @param rootPath the root under which semaphore paths live, such as {@code "/locks"}
	 * @throws IllegalArgumentException if the root is not a valid ZooKeeper path
	 */
	public SemaphoreByCurator(CuratorFramework client, String rootPath) {
		this(new LockEngine(client, rootPath), true);
	}

	private SemaphoreByCurator(LockEngine engine, boolean ownsEngine) {
		if (engine == null) {
			throw new IllegalArgumentException("'engine' must not be null");
		}
		this.engine = engine;
		this.ownsEngine = ownsEngine;
	}

	/**
	 * The lock engine these semaphores delegate to, for what it knows of the connection
	 * ({@link LockEngine#disconnectedSince()}).
	 * @return the engine
	 */
	public LockEngine engine() {
		return this.engine;
	}

	/**
	 * Stops following the connection state if these semaphores have their own engine; nothing
	 * otherwise. Leases stay as they are.
	 */
	@Override
	public void close() {
		if (this.ownsEngine) {
			this.engine.close();
		}
	}

	/**
	 * Takes one of {@code permits} permits on {@code path}, waiting at most {@code wait}.
	 * @param path the semaphore path, such as {@code "reports"}
	 * @param permits the semaphore's permit count, at least 1, the same in every process
	 * @param wait the longest wait; {@link Duration#ZERO} takes a free permit or gives up
	 * @return the lease, or empty if the wait ran out (nothing is left behind)
	 * @throws IllegalArgumentException if the path, permit count or wait is invalid
	 * @throws LockAcquisitionException if interrupted (the interrupt flag is set again) or
	 * if ZooKeeper fails
	 */
	public Optional<PermitLease> tryAcquire(String path, int permits, Duration wait) {
		if (wait == null || wait.isNegative()) {
			throw new IllegalArgumentException("Wait " + ((wait != null) ? Durations.format(wait) : "null")
					+ " for semaphore '" + path + "' is invalid: use a duration of zero or more (Duration.ZERO tries once)");
		}
		return this.engine.acquirePermit(path, permits, wait);
	}

	/**
	 * Takes one of {@code permits} permits on {@code path}, waiting as long as it takes.
	 * @param path the semaphore path
	 * @param permits the semaphore's permit count, at least 1
	 * @return the lease
	 * @throws IllegalArgumentException if the path or permit count is invalid
	 * @throws LockAcquisitionException if interrupted or if ZooKeeper fails
	 */
	public PermitLease acquire(String path, int permits) {
		return this.engine.acquirePermit(path, permits, null)
			.orElseThrow(() -> new IllegalStateException("An unbounded wait for '" + path + "' ended without a permit"));
	}

	/**
	 * Takes the semaphore mutex on {@code path} (a semaphore with one permit): not reentrant,
	 * releasable from any thread.
	 * @param path the mutex path
	 * @param wait the longest wait; {@link Duration#ZERO} tries once
	 * @return the lease, or empty if the wait ran out
	 * @throws IllegalArgumentException if the path or wait is invalid
	 * @throws LockAcquisitionException if interrupted or if ZooKeeper fails
	 */
	public Optional<PermitLease> tryAcquireMutex(String path, Duration wait) {
		return tryAcquire(path, 1, wait);
	}

}
