package io.zklock.docs;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.LockContext;
import io.zklock.annotation.OnLockFailure;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.PermitLease;
import io.zklock.lock.SemaphoreByCurator;

import org.springframework.scheduling.annotation.Scheduled;

/**
 * The Java samples of the migration guides in docs/ (zklock's side, and plain Curator's), each
 * between {@code tag::name[]} and {@code end::name[]} comments, which the guides show as they
 * are here; {@link MigrationSamplesTests} runs them against a real server.
 */
final class MigrationSamples {

	private MigrationSamples() {
	}

	/** Where every sample ships to: the order and the fencing token it shipped under. */
	static class Shipments {

		private final List<String> shipped = new CopyOnWriteArrayList<>();

		public List<String> shipped() {
			return this.shipped;
		}

		void ship(String orderId, long fencingToken) {
			this.shipped.add(orderId + "@" + fencingToken);
		}

	}

	/** docs/migrating-from-curator.md: the code it starts from. */
	static class CuratorBefore {

		private final CuratorFramework client;

		private final Shipments shipments;

		CuratorBefore(CuratorFramework client, Shipments shipments) {
			this.client = client;
			this.shipments = shipments;
		}

		public void shipWithCurator(String orderId) throws Exception {
			// tag::curator-before[]
			// Curator
			InterProcessMutex mutex = new InterProcessMutex(client, "/locks/orders/" + orderId);
			if (!mutex.acquire(5, TimeUnit.SECONDS)) {
				throw new IllegalStateException("order " + orderId + " is busy");
			}
			try {
				ship(orderId);
			}
			finally {
				mutex.release();
			}
			// end::curator-before[]
		}

		void ship(String orderId) {
			this.shipments.ship(orderId, -1);
		}

	}

	/** docs/migrating-from-curator.md: zklock's code. */
	static class FromCurator {

		private final ILockByCurator locks;

		private final Shipments shipments;

		FromCurator(ILockByCurator locks, Shipments shipments) {
			this.locks = locks;
			this.shipments = shipments;
		}

		public void shipWithZklock(String orderId) {
			// tag::curator-after[]
			// zklock
			try (LockHandle lock = locks.tryAcquire("orders/" + orderId, LockMode.EXCLUSIVE, Duration.ofSeconds(5))
					.orElseThrow(() -> new IllegalStateException("order " + orderId + " is busy"))) {
				ship(orderId, lock.fencingToken());
			}
			// end::curator-after[]
		}

		// tag::curator-annotation[]
		@DistributedLock(path = "orders", key = "#orderId", waitTime = "5s")
		public void ship(String orderId) {
			ship(orderId, LockContext.currentToken());
		}
		// end::curator-annotation[]

		void ship(String orderId, long fencingToken) {
			this.shipments.ship(orderId, fencingToken);
		}

	}

	/** docs/migrating-from-lock4j.md. */
	static class FromLock4j {

		private final ILockByCurator locks;

		private final Shipments shipments;

		FromLock4j(ILockByCurator locks, Shipments shipments) {
			this.locks = locks;
			this.shipments = shipments;
		}

		// tag::lock4j-annotation[]
		// zklock
		@DistributedLock(path = "order", key = "#orderId", waitTime = "3s")
		public void ship(String orderId) {
			long fencingToken = LockContext.currentToken();   // hand it to what you write
			shipments.ship(orderId, fencingToken);
		}
		// end::lock4j-annotation[]

		public void shipWithin(String orderId) {
			// tag::lock4j-api[]
			// zklock
			try (LockHandle lock = locks.tryAcquire("order/" + orderId, LockMode.EXCLUSIVE, Duration.ofSeconds(3))
					.orElseThrow(() -> new IllegalStateException("order " + orderId + " is busy"))) {
				ship(orderId, lock.fencingToken());
			}
			// end::lock4j-api[]
		}

		void ship(String orderId, long fencingToken) {
			this.shipments.ship(orderId, fencingToken);
		}

	}

	/** docs/migrating-from-shedlock.md. */
	static class FromShedLock {

		private final Shipments reports;

		FromShedLock(Shipments reports) {
			this.reports = reports;
		}

		// tag::shedlock-annotation[]
		// zklock
		@Scheduled(cron = "0 0 2 * * *")
		@DistributedLock(path = "nightly-report", holdAtLeast = "1m", waitTime = "0", onFailure = OnLockFailure.SKIP)
		public void nightlyReport() { reports.ship("nightly", LockContext.currentToken()); }
		// end::shedlock-annotation[]

	}

	/** docs/migrating-from-spring-integration.md. */
	static class FromSpringIntegration {

		private final Shipments shipments;

		FromSpringIntegration(Shipments shipments) {
			this.shipments = shipments;
		}

		// tag::spring-integration-annotation[]
		// zklock
		@DistributedLock(path = "orders", key = "#orderId", waitTime = "5s")
		public void ship(String orderId) {
			long fencingToken = LockContext.currentToken();   // hand it to what you write
			shipments.ship(orderId, fencingToken);
		}
		// end::spring-integration-annotation[]

	}

	/** docs/migrating-from-redisson.md. */
	static class FromRedisson {

		private final ILockByCurator locks;

		private final SemaphoreByCurator semaphores;

		private final Shipments shipments;

		FromRedisson(ILockByCurator locks, SemaphoreByCurator semaphores, Shipments shipments) {
			this.locks = locks;
			this.semaphores = semaphores;
			this.shipments = shipments;
		}

		public void ship(String orderId) {
			// tag::redisson-lock[]
			// zklock: no lease, no watchdog; the lock is held until close(), or until the session ends
			try (LockHandle lock = locks.tryAcquire("orders/" + orderId, LockMode.EXCLUSIVE, Duration.ofSeconds(5))
					.orElseThrow(() -> new IllegalStateException("order " + orderId + " is busy"))) {
				shipments.ship(orderId, lock.fencingToken());   // RFencedLock's token: a zxid here
			}
			// end::redisson-lock[]
		}

		public void readAndWrite(String orderId) {
			// tag::redisson-read-write[]
			// zklock
			try (LockHandle read = locks.acquire("stock/" + orderId, LockMode.READ)) {
				// readers hold together
			}
			try (LockHandle write = locks.acquire("stock/" + orderId, LockMode.WRITE)) {
				shipments.ship(orderId, write.fencingToken());   // a writer holds alone
			}
			// end::redisson-read-write[]
		}

		public void report() {
			// tag::redisson-semaphore[]
			// zklock: 3 permits, the same count in every instance
			try (PermitLease permit = semaphores.tryAcquire("reports", 3, Duration.ofSeconds(10))
					.orElseThrow(() -> new IllegalStateException("all 3 report slots are busy"))) {
				shipments.ship("report", 1);
			}
			// end::redisson-semaphore[]
		}

		// tag::redisson-annotation[]
		// zklock
		@DistributedLock(path = "orders", key = "#orderId", waitTime = "5s")
		public void shipLocked(String orderId) {
			shipments.ship(orderId, LockContext.currentToken());
		}
		// end::redisson-annotation[]

	}

}
