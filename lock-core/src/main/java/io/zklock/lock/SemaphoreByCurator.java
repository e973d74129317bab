package io.zklock.lock;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;

/**
 * Distributed counting semaphores: N permits on one path, shared by every process, on
 * Curator's {@link InterProcessSemaphoreV2} (the semaphore recipe of the Curator
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

	/** How long a zero-wait try may wait for Curator's internal mutex while permits are free. */
	private static final Duration ZERO_WAIT_BOUND = Duration.ofSeconds(1);

	/** One wait for the internal mutex within a zero-wait try, between two looks at the leases. */
	private static final Duration ZERO_WAIT_SLICE = Duration.ofMillis(50);

	private final CuratorFramework client;

	private final LockRoot root;

	private final SessionGuard guard;

	private final boolean ownsGuard;

	/**
	 * Creates the semaphores of a lock coordinator: same client, lock root and session guard.
	 * @param coordinator the coordinator
	 */
	public SemaphoreByCurator(LockCoordinator coordinator) {
		this(coordinator.getClient(), coordinator.getRoot(), coordinator.sessionGuard(), false);
	}

	/**
	 * Creates semaphores with their own session guard, for use without a coordinator; close
	 * them when done.
	 * @param client a started Curator client
	 * @param rootPath the root under which semaphore paths live, such as {@code "/locks"}
	 * @throws IllegalArgumentException if the root is not a valid ZooKeeper path
	 */
	public SemaphoreByCurator(CuratorFramework client, String rootPath) {
		this(client, new LockRoot(client, rootPath), new SessionGuard(client, (hold) -> {
		}), true);
	}

	private SemaphoreByCurator(CuratorFramework client, LockRoot root, SessionGuard guard, boolean ownsGuard) {
		this.client = client;
		this.root = root;
		this.guard = guard;
		this.ownsGuard = ownsGuard;
	}

	/**
	 * Stops following the connection state if these semaphores have their own session guard;
	 * nothing otherwise. Leases stay as they are.
	 */
	@Override
	public void close() {
		if (this.ownsGuard) {
			this.guard.close();
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
		return acquire(path, permits, wait);
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
		return acquire(path, permits, null)
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

	private Optional<PermitLease> acquire(String path, int permits, @Nullable Duration wait) {
		if (permits < 1) {
			throw new IllegalArgumentException("Permit count " + permits + " for semaphore '" + path
					+ "' is invalid: a semaphore needs at least 1 permit");
		}
		String relative = this.root.relative(path);
		String basePath = this.root.zooKeeperPath(relative);
		String leasesPath = ZKPaths.makePath(basePath, "leases");
		InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(this.client, basePath, permits);
		long decidedAt = this.guard.epoch();
		Lease lease;
		try {
			lease = (wait == null) ? semaphore.acquire()
					: wait.isZero() ? tryFreePermit(semaphore, leasesPath, permits)
							: semaphore.acquire(wait.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockAcquisitionException(relative,
					"Interrupted while waiting for a permit of semaphore '" + relative + "'", ex);
		}
		catch (Exception ex) {
			throw new LockAcquisitionException(relative,
					"Could not acquire a permit of semaphore '" + relative + "': " + ex, ex);
		}
		if (lease == null) {
			return Optional.empty();
		}
		PermitHold hold = new PermitHold(relative, permits, leasesPath, lease.getNodeName(), this.guard.sessionId(),
				this.client, this.guard);
		if (!this.guard.register(hold, decidedAt)) {
			NodeDeletion.deleteInBackground(this.client, hold.nodePath(), null);
			throw new LockAcquisitionException(relative, "The session that took a permit of semaphore '" + relative
					+ "' ended before the permit could be handed out; try again");
		}
		return Optional.of(hold);
	}

	/**
	 * A zero wait: takes a free permit, waiting for Curator's internal mutex in short slices,
	 * and gives up once every permit is seen in use (or after {@link #ZERO_WAIT_BOUND}).
	 */
	private @Nullable Lease tryFreePermit(InterProcessSemaphoreV2 semaphore, String leasesPath, int permits)
			throws Exception {
		Deadline bound = Deadline.after(ZERO_WAIT_BOUND);
		while (leasesInUse(leasesPath) < permits && !bound.hasPassed()) {
			Lease lease = semaphore.acquire(ZERO_WAIT_SLICE.toNanos(), TimeUnit.NANOSECONDS);
			if (lease != null) {
				return lease;
			}
		}
		return null;
	}

	private int leasesInUse(String leasesPath) throws Exception {
		try {
			List<String> leases = this.client.getChildren().forPath(leasesPath);
			return leases.size();
		}
		catch (KeeperException.NoNodeException ex) {
			return 0;
		}
	}

}
