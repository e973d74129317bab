package io.zklock.lock;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;
import org.apache.curator.utils.ZKPaths;

/**
 * Distributed counting semaphores: N permits on one path, shared by every process, on
 * Curator's {@link InterProcessSemaphoreV2} (the semaphore recipe of the Curator
 * documentation: an internal fair mutex queues takers, and a lease node per permit holder
 * counts the permits in use). With one permit it is a non-reentrant mutex whose nodes are
 * those of Curator's {@code InterProcessSemaphoreMutex}: a second acquire waits for the
 * first release, also on the same thread, and the lease may be released from any thread.
 *
 * <p>
 * All processes must use the same permit count for one path. Leases are not reentrant.
 * Thread-safe.
 */
public class SemaphoreByCurator {

	private final CuratorFramework client;

	private final String rootPath;

	private final boolean namespaced;

	/**
	 * Creates the semaphores.
	 * @param client a started Curator client
	 * @param rootPath the root under which semaphore paths live, such as {@code "/locks"}
	 */
	public SemaphoreByCurator(CuratorFramework client, String rootPath) {
		if (client == null) {
			throw new IllegalArgumentException("'client' must not be null");
		}
		this.client = client;
		this.namespaced = LockPaths.isNamespaced(client);
		this.rootPath = LockPaths.validateRoot(rootPath, this.namespaced);
	}

	/**
	 * Takes one of {@code permits} permits on {@code path}, waiting at most {@code wait}.
	 * @param path the semaphore path, such as {@code "reports"}
	 * @param permits the semaphore's permit count, at least 1, the same in every process
	 * @param wait the longest wait; {@link Duration#ZERO} tries once
	 * @return the lease, or empty if the wait ran out (nothing is left behind)
	 * @throws IllegalArgumentException if the path, permit count or wait is invalid
	 * @throws LockAcquisitionException if interrupted (the interrupt flag is set again) or
	 * if ZooKeeper fails
	 */
	public Optional<PermitLease> tryAcquire(String path, int permits, Duration wait) {
		if (wait == null || wait.isNegative()) {
			throw new IllegalArgumentException("Wait " + wait + " for semaphore '" + path
					+ "' is invalid: use a non-negative duration, Duration.ZERO to try once");
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

	private Optional<PermitLease> acquire(String path, int permits, Duration wait) {
		if (permits < 1) {
			throw new IllegalArgumentException("Permit count " + permits + " for semaphore '" + path
					+ "' is invalid: a semaphore needs at least 1 permit");
		}
		String relative = LockPaths.normalize(path, this.rootPath);
		String basePath = LockPaths.toZooKeeperPath(relative, this.rootPath, this.namespaced);
		InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(this.client, basePath, permits);
		Lease lease;
		try {
			lease = (wait != null) ? semaphore.acquire(wait.toNanos(), TimeUnit.NANOSECONDS) : semaphore.acquire();
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
		return Optional.of(new CuratorPermitLease(relative, permits, ZKPaths.makePath(basePath, "leases"), lease));
	}

	private final class CuratorPermitLease implements PermitLease {

		private final String path;

		private final int permits;

		private final String leasePath;

		private final String nodeName;

		private final Instant acquiredAt = Instant.now();

		private final AtomicBoolean released = new AtomicBoolean();

		CuratorPermitLease(String path, int permits, String leasesPath, Lease lease) {
			this.path = path;
			this.permits = permits;
			this.nodeName = lease.getNodeName();
			this.leasePath = ZKPaths.makePath(leasesPath, this.nodeName);
		}

		@Override
		public String path() {
			return this.path;
		}

		@Override
		public int permits() {
			return this.permits;
		}

		@Override
		public String nodeName() {
			return this.nodeName;
		}

		@Override
		public Instant acquiredAt() {
			return this.acquiredAt;
		}

		@Override
		public boolean isHeld() {
			return !this.released.get();
		}

		@Override
		public ReleaseResult release() {
			if (!this.released.compareAndSet(false, true)) {
				return ReleaseResult.ALREADY_RELEASED;
			}
			return LockNodeQueue.delete(SemaphoreByCurator.this.client, this.leasePath);
		}

		@Override
		public String toString() {
			return "PermitLease['" + this.path + "', 1 of " + this.permits + ", " + this.nodeName + "]";
		}

	}

}
