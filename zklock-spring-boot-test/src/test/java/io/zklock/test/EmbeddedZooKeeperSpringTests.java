package io.zklock.test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.lock.HoldOwner;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockAcquisitionException;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockState;
import io.zklock.lock.event.LockTarget;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link EmbeddedZooKeeper} in a Spring Boot test, with {@link LockAssert},
 * {@link LockRecorder} and {@link BusyLock} driving an application's annotated methods.
 */
@EmbeddedZooKeeper
@SpringBootTest(classes = LockedOrders.Application.class)
@Timeout(60)
@Tag("slow")
class EmbeddedZooKeeperSpringTests {

	@Autowired
	private LockedOrders orders;

	@Autowired
	private LockRecorder recorder;

	@Autowired
	private TestZooKeeper zookeeper;

	@Autowired
	private CuratorFramework client;

	@Autowired
	private ILockByCurator locks;

	@BeforeEach
	void clearRecorder() {
		this.recorder.clear();
	}

	@Test
	void shouldConnectTheApplicationToTheClassServerInAFreshNamespace(TestZooKeeper server) {
		assertThat(server.connectString()).isEqualTo(this.zookeeper.connectString());
		assertThat(this.client.getZookeeperClient().getCurrentConnectionString()).isEqualTo(server.connectString());
		assertThat(this.client.getNamespace()).isEqualTo(server.namespace())
			.startsWith("zklock-test-embeddedzookeeperspringtests-");
		assertThat(this.zookeeper.rootPath()).isEqualTo("/locks");
	}

	@Test
	void shouldPassLockAssertInsideAnnotatedMethodAndFailOutside() {
		assertThat(this.orders.ship(42)).isPositive();
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> LockAssert.assertLocked("orders/42"))
			.withMessage("Expected to run under lock path 'orders/42', but thread '" + Thread.currentThread().getName()
					+ "' holds no lock: no annotated call runs on it, and no lock was acquired on it through an "
					+ "ILockByCurator LockAssert watches (the ILockByCurator beans of a Spring test; LockAssert.watch "
					+ "for others). If the method is annotated, is it called through its Spring proxy (not from the "
					+ "same object)?");
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> this.orders.shipAssertingOtherPath(5))
			.withMessageContaining("Expected to run under lock path 'orders/6'")
			.withMessageContaining("holds EXCLUSIVE 'orders/5' (annotated call)");
		this.orders.readReport();
	}

	@Test
	void shouldSeeLocksAcquiredThroughILockByCuratorOnThisThread() {
		try (LockHandle handle = this.locks.acquire("orders/51", LockMode.EXCLUSIVE)) {
			LockHandle seen = LockAssert.assertLocked("orders/51", LockMode.EXCLUSIVE);
			assertThat(seen.fencingToken()).isEqualTo(handle.fencingToken());
			assertThat(seen.owner()).isEqualTo(HoldOwner.CALL);
			assertThat(seen.isHeld()).isTrue();
			assertThat(LockAssert.assertLocked()).extracting(LockHandle::lockPath).isEqualTo("orders/51");
			assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> LockAssert.assertNotLocked("orders/51"))
				.withMessage("Expected not to run under lock path 'orders/51', but thread '"
						+ Thread.currentThread().getName()
						+ "' holds EXCLUSIVE 'orders/51' (call-owned, through ILockByCurator)");
			assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> LockAssert.assertLocked("orders/52"))
				.withMessageEndingWith("holds EXCLUSIVE 'orders/51' (call-owned, through ILockByCurator)");
			assertThat(seen.state()).isEqualTo(LockState.HELD);
			handle.release();
			assertThat(seen.isHeld()).as("the view reads the hold's state now").isFalse();
		}
		this.locks.acquireDistributedLock("orders/53");
		try {
			assertThat(LockAssert.assertLocked("orders/53").owner()).isEqualTo(HoldOwner.THREAD);
			assertThat(this.orders.ship(54)).isPositive();
		}
		finally {
			this.locks.releaseDistributedLock("orders/53");
		}
		LockAssert.assertNotLocked("orders/53");
	}

	@Test
	void shouldNotSeeAnotherThreadsLocks() throws Exception {
		AtomicReference<LockHandle> acquired = new AtomicReference<>();
		Thread other = new Thread(() -> acquired.set(this.locks.acquire("orders/61", LockMode.EXCLUSIVE)),
				"other-thread");
		other.start();
		other.join(10_000);
		try (LockHandle handle = acquired.get()) {
			assertThat(handle.isHeld()).isTrue();
			LockAssert.assertNotLocked("orders/61");
			assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> LockAssert.assertLocked("orders/61"))
				.withMessageContaining("holds no lock");
		}
	}

	@Test
	void shouldRecordLockPathsInTheOrderTakenWithTheirFencingTokens() {
		List<LockRecorder.Acquisition> taken = this.recorder.record(() -> this.orders.merge(List.of(7L, 3L)));
		assertThat(taken).extracting(LockRecorder.Acquisition::lockPath).containsExactly("orders/3", "orders/7");
		assertThat(taken).extracting(LockRecorder.Acquisition::mode)
			.containsOnly(LockMode.EXCLUSIVE);
		assertThat(taken.get(1).fencingToken()).isGreaterThan(taken.get(0).fencingToken());
		long shipped = this.orders.ship(9);
		assertThat(this.recorder.acquiredPaths()).containsExactly("orders/3", "orders/7", "orders/9");
		assertThat(this.recorder.acquisitions().get(2).fencingToken()).isEqualTo(shipped);
		assertThat(this.recorder.releases()).extracting(LockRecorder.Acquisition::lockPath)
			.containsExactlyInAnyOrder("orders/3", "orders/7", "orders/9");
	}

	@Test
	void shouldSkipTheCallWhileTheLockIsBusyElsewhere() {
		long busyToken;
		try (BusyLock busy = this.zookeeper.holdElsewhere("orders/42")) {
			busyToken = busy.fencingToken();
			assertThat(busy.isHeld()).isTrue();
			assertThat(this.orders.shipIfFree(42)).isNull();
			assertThat(this.orders.shipIfFree(43)).startsWith("shipped 43");
		}
		assertThat(this.orders.shipIfFree(42)).startsWith("shipped 42");
		assertThat(this.recorder.acquisitions()).filteredOn((a) -> a.lockPath().equals("orders/42"))
			.singleElement()
			.satisfies((acquisition) -> assertThat(acquisition.fencingToken()).isGreaterThan(busyToken));
	}

	@Test
	void shouldTimeOutWhileTheLockIsBusyElsewhere() {
		try (BusyLock busy = this.zookeeper.holdElsewhere("orders/77")) {
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> this.orders.shipWithinAMoment(77))
				.withMessageContaining("orders/77");
		}
		assertThat(this.recorder.timeouts()).containsExactly(new LockTarget("orders/77", "orders", LockMode.EXCLUSIVE));
		this.orders.shipWithinAMoment(77);
	}

	@Test
	void shouldLetReadersInWhileAReadLockIsHeldElsewhereButNotWriters() {
		try (BusyLock busy = this.zookeeper.holdElsewhere("reports", LockMode.READ)) {
			assertThat(busy.mode()).isEqualTo(LockMode.READ);
			this.orders.readReport();
		}
		try (BusyLock busy = this.zookeeper.holdElsewhere("reports", LockMode.WRITE)) {
			assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(this.orders::readReport);
		}
	}

	@Test
	void shouldFailClearlyWhenTheLockCannotBeHeldElsewhere() {
		try (BusyLock busy = this.zookeeper.holdElsewhere("orders/1")) {
			long start = System.nanoTime();
			assertThatExceptionOfType(IllegalStateException.class)
				.isThrownBy(() -> BusyLock.hold(this.zookeeper.connectString(), this.zookeeper.namespace(),
						this.zookeeper.rootPath(), "orders/1", LockMode.EXCLUSIVE, Duration.ofMillis(100)))
				.withMessageContaining("Could not hold lock path 'orders/1'");
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
		}
	}

}
