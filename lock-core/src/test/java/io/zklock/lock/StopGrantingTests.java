package io.zklock.lock;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link LockEngine#stopGranting(String)}: no lock or permit is granted after it,
 * a waiter whose turn comes gives it up at once, re-entry and held locks are untouched.
 */
@Timeout(60)
class StopGrantingTests extends ZkServerTest {

	private static final String REASON = "the application is shutting down";

	private CuratorFramework client;

	private LockEngine engine;

	private ILockByCurator locks;

	@BeforeEach
	void start() {
		this.client = this.clients.newClient();
		this.engine = new LockEngine(this.client, "/locks");
		this.locks = new ExclusiveLockByCurator(this.engine);
	}

	@Test
	void shouldRefuseANewLockAndAPermitSayingWhy() {
		this.engine.stopGranting(REASON);
		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> this.locks.tryAcquire("orders/1", LockMode.EXCLUSIVE, Duration.ofSeconds(5)))
			.withMessage("Not acquiring the EXCLUSIVE lock on 'orders/1': " + REASON);
		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> new SemaphoreByCurator(this.engine).tryAcquire("reports", 2, Duration.ZERO))
			.withMessage("Not taking a permit of the semaphore 'reports' (2 permits): " + REASON);
	}

	@Test
	void shouldPassAWaitersTurnOnOnceGrantingStopped() throws Exception {
		ILockByCurator other = new ExclusiveLockByCurator(new LockEngine(this.clients.newClient(), "/locks"));
		LockHandle held = other.acquire("orders/2", LockMode.EXCLUSIVE);
		CompletableFuture<LockHandle> waiter = CompletableFuture
			.supplyAsync(() -> this.locks.acquire("orders/2", LockMode.EXCLUSIVE));
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.client.getChildren().forPath("/locks/orders/2").size() == 2);
		this.engine.stopGranting(REASON);
		CompletableFuture<LockHandle> third = CompletableFuture
			.supplyAsync(() -> other.acquire("orders/2", LockMode.EXCLUSIVE));
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.client.getChildren().forPath("/locks/orders/2").size() == 3);
		held.release();
		assertThat(waiter).failsWithin(10, TimeUnit.SECONDS)
			.withThrowableThat()
			.havingRootCause()
			.isInstanceOf(LockAcquisitionException.class)
			.withMessage("Not acquiring the EXCLUSIVE lock on 'orders/2': " + REASON);
		// the turn passed on to the waiter behind, on the engine that still grants
		third.get(10, TimeUnit.SECONDS).release();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.client.getChildren().forPath("/locks/orders/2").isEmpty());
	}

	@Test
	void shouldLetAThreadReenterItsLockAndReleaseWhatItHolds() {
		LockRequest threadOwned = LockRequest.of("orders/3", LockMode.EXCLUSIVE).ownedBy(HoldOwner.THREAD);
		LockHandle held = this.locks.tryAcquire(threadOwned).orElseThrow();
		this.engine.stopGranting(REASON);
		LockHandle reentered = this.locks.tryAcquire(threadOwned).orElseThrow();
		assertThat(reentered.fencingToken()).isEqualTo(held.fencingToken());
		reentered.release();
		held.release();
		assertThat(this.engine.getHeldLocks()).isEmpty();
	}

	@Test
	void shouldRejectABlankReason() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.engine.stopGranting(" "))
			.withMessageContaining("'reason' must not be blank");
	}

}
