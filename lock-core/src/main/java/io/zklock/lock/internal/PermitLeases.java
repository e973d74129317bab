package io.zklock.lock.internal;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.zklock.lock.LockAcquisitionException;
import io.zklock.lock.PermitLease;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;

/**
 * Takes permit leases of semaphores on Curator's {@link InterProcessSemaphoreV2} (the semaphore
 * recipe of the Curator documentation) and guards each lease like a lock node with the
 * {@link SessionGuard}. Thread-safe.
 */
final class PermitLeases {

	/** How long a zero-wait try may wait for Curator's internal mutex while permits are free. */
	private static final Duration ZERO_WAIT_BOUND = Duration.ofSeconds(1);

	/** One wait for the internal mutex within a zero-wait try, between two looks at the leases. */
	private static final Duration ZERO_WAIT_SLICE = Duration.ofMillis(50);

	private final CuratorFramework client;

	private final SessionGuard guard;

	PermitLeases(CuratorFramework client, SessionGuard guard) {
		this.client = client;
		this.guard = guard;
	}

	/**
	 * Takes one of {@code permits} permits, waiting at most {@code wait} ({@code null}: as long
	 * as it takes).
	 * @param path the checked semaphore path, relative to the lock root
	 * @param basePath the ZooKeeper path of the semaphore
	 * @return the lease, or empty if the wait ran out (nothing is left behind)
	 */
	Optional<PermitLease> acquire(String path, String basePath, int permits, @Nullable Duration wait) {
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
			throw new LockAcquisitionException(path,
					"Interrupted while waiting for a permit of semaphore '" + path + "'", ex);
		}
		catch (Exception ex) {
			throw new LockAcquisitionException(path,
					"Could not acquire a permit of semaphore '" + path + "': " + ex, ex);
		}
		if (lease == null) {
			return Optional.empty();
		}
		PermitHold hold = new PermitHold(path, permits, leasesPath, lease.getNodeName(), this.guard.sessionId(),
				this.client, this.guard);
		if (!this.guard.register(hold, decidedAt)) {
			NodeDeletion.deleteInBackground(this.client, hold.nodePath(), null);
			throw new LockAcquisitionException(path, "The session that took a permit of semaphore '" + path
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
