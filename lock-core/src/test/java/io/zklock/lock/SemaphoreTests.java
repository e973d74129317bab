package io.zklock.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreMutex;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link SemaphoreByCurator} on a real server.
 */
@Timeout(60)
@Tag("slow")
class SemaphoreTests extends ZkServerTest {

	@Test
	void shouldAdmitAtMostPermitsHoldersAcrossProcesses() throws Exception {
		int permits = 3;
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger maxInside = new AtomicInteger();
		List<CompletableFuture<Void>> workers = new ArrayList<>();
		for (int c = 0; c < 3; c++) {
			SemaphoreByCurator semaphores = new SemaphoreByCurator(client(), "/locks");
			for (int t = 0; t < 2; t++) {
				workers.add(CompletableFuture.runAsync(() -> {
					for (int round = 0; round < 10; round++) {
						try (PermitLease lease = semaphores.acquire("reports", permits)) {
							maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
							Thread.sleep(5); // simulated work inside the permit
							inside.decrementAndGet();
						}
						catch (InterruptedException ex) {
							throw new IllegalStateException(ex);
						}
					}
				}));
			}
		}
		CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(50, TimeUnit.SECONDS);
		assertThat(maxInside.get()).isBetween(1, permits);
		assertThat(observer().getChildren().forPath("/locks/reports/leases")).isEmpty();
	}

	@Test
	void shouldTimeOutWhenAllPermitsAreTakenAndReturnALeaseFromAnyThread() throws Exception {
		SemaphoreByCurator semaphores = new SemaphoreByCurator(client(), "/locks");
		PermitLease first = semaphores.tryAcquire("jobs", 2, Duration.ZERO).orElseThrow();
		PermitLease second = semaphores.tryAcquire("jobs", 2, Duration.ZERO).orElseThrow();
		assertThat(semaphores.tryAcquire("jobs", 2, Duration.ofMillis(200))).isEmpty();
		assertThat(CompletableFuture.supplyAsync(first::release).get(10, TimeUnit.SECONDS))
			.isEqualTo(ReleaseResult.RELEASED);
		assertThat(first.release()).isEqualTo(ReleaseResult.ALREADY_RELEASED);
		PermitLease third = semaphores.tryAcquire("jobs", 2, Duration.ofSeconds(5)).orElseThrow();
		second.close();
		third.close();
		assertThat(observer().getChildren().forPath("/locks/jobs/leases")).isEmpty();
	}

	@Test
	void shouldInteroperateWithCuratorAsANonReentrantSemaphoreMutex() throws Exception {
		CuratorFramework client = client();
		SemaphoreByCurator semaphores = new SemaphoreByCurator(client, "/locks");
		PermitLease lease = semaphores.tryAcquireMutex("exports", Duration.ZERO).orElseThrow();
		assertThat(semaphores.tryAcquireMutex("exports", Duration.ofMillis(200))).as("not reentrant").isEmpty();
		InterProcessSemaphoreMutex curator = new InterProcessSemaphoreMutex(client(), "/locks/exports");
		assertThat(curator.acquire(200, TimeUnit.MILLISECONDS)).isFalse();
		lease.release();
		assertThat(curator.acquire(5, TimeUnit.SECONDS)).isTrue();
		assertThat(semaphores.tryAcquireMutex("exports", Duration.ofMillis(200))).isEmpty();
		curator.release();
	}

	@Test
	void shouldTakeAFreePermitWithAZeroWaitDespiteTakersInCuratorsInternalMutex() throws Exception {
		int permits = 10;
		int takers = 3;
		int tries = 150;
		AtomicInteger refused = new AtomicInteger();
		AtomicInteger inUse = new AtomicInteger();
		AtomicInteger mostInUse = new AtomicInteger();
		List<CompletableFuture<Void>> runs = new ArrayList<>();
		for (int t = 0; t < takers; t++) {
			SemaphoreByCurator semaphores = new SemaphoreByCurator(client(), "/locks");
			runs.add(CompletableFuture.runAsync(() -> {
				for (int i = 0; i < tries; i++) {
					Optional<PermitLease> lease = semaphores.tryAcquire("zero", permits, Duration.ZERO);
					if (lease.isEmpty()) {
						refused.incrementAndGet();
						continue;
					}
					mostInUse.accumulateAndGet(inUse.incrementAndGet(), Math::max);
					inUse.decrementAndGet();
					lease.get().release();
				}
			}));
		}
		CompletableFuture.allOf(runs.toArray(CompletableFuture[]::new)).get(50, TimeUnit.SECONDS);
		assertThat(mostInUse.get()).as("permits in use at once").isLessThanOrEqualTo(takers);
		assertThat(refused).as("zero-wait tries refused while at most %d of %d permits were in use", takers, permits)
			.hasValue(0);
	}

	@Test
	void shouldGiveUpAZeroWaitAtOnceWhenEveryPermitIsInUse() throws Exception {
		SemaphoreByCurator holder = new SemaphoreByCurator(client(), "/locks");
		PermitLease first = holder.tryAcquire("full", 2, Duration.ZERO).orElseThrow();
		PermitLease second = holder.tryAcquire("full", 2, Duration.ZERO).orElseThrow();
		SemaphoreByCurator other = new SemaphoreByCurator(client(), "/locks");
		assertThat(other.tryAcquire("full", 2, Duration.ZERO)).isEmpty();
		first.release();
		other.tryAcquire("full", 2, Duration.ZERO).orElseThrow().release();
		second.release();
	}

	@Test
	void shouldFollowTheConnectionStateWithALeaseAsWithALock() throws Exception {
		CuratorFramework client = client();
		SemaphoreByCurator semaphores = new SemaphoreByCurator(client, "/locks");
		PermitLease lease = semaphores.tryAcquire("jobs", 1, Duration.ZERO).orElseThrow();
		AtomicInteger lossCalls = new AtomicInteger();
		lease.onLost((l) -> lossCalls.incrementAndGet());
		assertThat(lease.state()).isEqualTo(LockState.HELD);
		server.stop();
		await().atMost(Duration.ofSeconds(20)).until(() -> lease.state() == LockState.IN_DOUBT);
		assertThat(lease.isHeld()).isFalse();
		assertThat(lossCalls).hasValue(1);
		server.restart();
		await().atMost(Duration.ofSeconds(20)).until(() -> lease.state() == LockState.HELD);
		assertThat(lease.release()).isEqualTo(ReleaseResult.RELEASED);
		semaphores.close();
	}

	@Test
	void shouldReportLostForAReleaseAfterSessionExpiry() throws Exception {
		CuratorFramework client = client();
		SemaphoreByCurator semaphores = new SemaphoreByCurator(client, "/locks");
		PermitLease lease = semaphores.tryAcquire("jobs", 1, Duration.ZERO).orElseThrow();
		ZkTestSupport.expireSession(server, client);
		CuratorFramework observer = client();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> observer.getChildren().forPath("/locks/jobs/leases").isEmpty());
		await().atMost(Duration.ofSeconds(10)).until(() -> client.getZookeeperClient().isConnected());
		assertThat(lease.release()).isEqualTo(ReleaseResult.LOST);
	}

	@Test
	void shouldRejectBadInputNamingTheValue() throws Exception {
		SemaphoreByCurator semaphores = new SemaphoreByCurator(client(), "/bad-input");
		assertThatIllegalArgumentException().isThrownBy(() -> semaphores.tryAcquire("jobs", 0, Duration.ZERO))
			.withMessageContaining("Permit count 0")
			.withMessageContaining("'jobs'");
		assertThatIllegalArgumentException().isThrownBy(() -> semaphores.tryAcquire("jobs", -2, Duration.ZERO))
			.withMessageContaining("-2");
		assertThatIllegalArgumentException().isThrownBy(() -> semaphores.tryAcquire("jobs", 1, Duration.ofSeconds(-1)))
			.withMessageContaining("-1s");
		assertThatIllegalArgumentException().isThrownBy(() -> semaphores.tryAcquire("a/../b", 1, Duration.ZERO))
			.withMessageContaining("'a/../b'");
		assertThat(observer().checkExists().forPath("/bad-input")).as("nothing created for bad input").isNull();
	}

	private CuratorFramework client() {
		return this.clients.newClient((builder) -> builder.sessionTimeoutMs(4000));
	}

	/** A client that only looks: each call makes a new one, closed after the test. */
	private CuratorFramework observer() {
		return this.clients.newClient();
	}

}
