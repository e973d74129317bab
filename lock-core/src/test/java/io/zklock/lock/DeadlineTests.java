package io.zklock.lock;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.retry.RetryNTimes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A wait bounds the whole acquire, ZooKeeper round trips and Curator's retries included:
 * with the ensemble gone, a client whose every call would retry for a minute still gives up
 * when its wait runs out, and leaves nothing behind once the ensemble is back.
 */
@Timeout(120)
@Tag("slow")
class DeadlineTests extends ZkServerTest {

	private static final Logger logger = LoggerFactory.getLogger(DeadlineTests.class);


	@Test
	void shouldBoundZooKeeperCallsByTheWaitWhileTheEnsembleIsAway() throws Exception {
		// 15 s connection timeout and 3 retries: one call alone could block for about a minute
		CuratorFramework client = client(15_000);
		ILockByCurator locks = new ExclusiveLockByCurator(client, "/locks");
		locks.tryAcquire("warmup", LockMode.EXCLUSIVE, Duration.ZERO).orElseThrow().release();
		server.stop();

		long start = System.nanoTime();
		Optional<LockHandle> lock = locks.tryAcquire("jobs", LockMode.EXCLUSIVE, Duration.ofSeconds(1));
		long tookMs = (System.nanoTime() - start) / 1_000_000;
		logger.info("1 s wait with the ensemble away returned after {} ms", tookMs);
		assertThat(lock).isEmpty();
		assertThat(tookMs).as("bounded by the wait, not by Curator's retries").isLessThan(10_000);
		assertThat(Thread.currentThread().isInterrupted()).as("no stray interrupt").isFalse();

		server.restart();
		CuratorFramework observer = client(5_000);
		await().atMost(Duration.ofSeconds(20))
			.until(() -> observer.checkExists().forPath("/locks/jobs") == null
					|| observer.getChildren().forPath("/locks/jobs").isEmpty());
		LockHandle after = locks.tryAcquire("jobs", LockMode.EXCLUSIVE, Duration.ofSeconds(10)).orElseThrow();
		after.release();
	}

	@Test
	void shouldAcquireOnceTheEnsembleIsBackWithinTheWaitEvenAfterCuratorsRetriesWouldHaveRunOut() throws Exception {
		// 1 s connection timeout, 3 retries 1 s apart: a request sent into the outage is given up after about 4 s
		CuratorFramework client = client(1_000);
		ILockByCurator locks = new ExclusiveLockByCurator(client, "/locks");
		locks.acquire("warmup", LockMode.EXCLUSIVE).release();
		server.stop();
		await().atMost(Duration.ofSeconds(20)).until(() -> !client.getZookeeperClient().isConnected());

		CompletableFuture<Optional<LockHandle>> waiting = CompletableFuture
			.supplyAsync(() -> locks.tryAcquire("jobs", LockMode.EXCLUSIVE, Duration.ofSeconds(30)));
		await().during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(10)).until(() -> !waiting.isDone());
		server.restart();
		assertThat(waiting.get(30, TimeUnit.SECONDS)).as("granted after the outage, within the wait").isPresent()
			.get()
			.satisfies(LockHandle::release);
	}

	/**
	 * A short wait on a busy lock ends at its deadline plus about one round trip, not at a second
	 * (before: every wait shorter than a second lasted a second, the bound of its ZooKeeper calls,
	 * and the give-up then waited for its node's deletion). The bound asserted is a correctness
	 * bound, far above the round trips of a loaded machine and below the second the wait used to
	 * last; the latencies themselves are measured in benchmarks/ (give-up latency).
	 */
	@Test
	void shouldAnswerAShortWaitOnABusyLockAtItsDeadline() throws Exception {
		CuratorFramework client = client(15_000);
		ILockByCurator locks = new ExclusiveLockByCurator(client, "/locks");
		LockHandle held = new ExclusiveLockByCurator(client(15_000), "/locks").acquire("busy", LockMode.EXCLUSIVE);
		locks.tryAcquire("busy", LockMode.EXCLUSIVE, Duration.ofMillis(5)); // warm-up: classes loaded, path known
		for (long waitMs : new long[] { 0, 5, 50, 200 }) {
			long start = System.nanoTime();
			Optional<LockHandle> lock = locks.tryAcquire("busy", LockMode.EXCLUSIVE, Duration.ofMillis(waitMs));
			long tookMs = (System.nanoTime() - start) / 1_000_000;
			logger.info("a {} ms wait on a busy lock returned after {} ms", waitMs, tookMs);
			assertThat(lock).isEmpty();
			assertThat(tookMs).as("a %d ms wait on a busy lock", waitMs).isLessThan(waitMs + 750);
		}
		held.release();
		await().atMost(Duration.ofSeconds(20)).until(() -> client.getChildren().forPath("/locks/busy").isEmpty());
	}

	/**
	 * A zero wait on a free lock still looks at the queue once, and holds it: the wait runs out
	 * before the create and listing return, and the acquire waits for that first look.
	 */
	@Test
	void shouldHoldAFreeLockWithAZeroWait() throws Exception {
		ILockByCurator locks = new ExclusiveLockByCurator(client(15_000), "/locks");
		for (int i = 0; i < 5; i++) {
			locks.tryAcquire("free-" + i, LockMode.EXCLUSIVE, Duration.ZERO).orElseThrow().release();
		}
	}

	@Test
	void shouldNotCutOffAnUnlimitedWait() throws Exception {
		CuratorFramework client = client(15_000);
		ILockByCurator locks = new ExclusiveLockByCurator(client, "/locks");
		locks.acquire("jobs", LockMode.EXCLUSIVE).release();
	}

	private CuratorFramework client(int connectionTimeoutMs) {
		return this.clients.newClient((builder) -> builder.sessionTimeoutMs(30_000)
			.connectionTimeoutMs(connectionTimeoutMs)
			.retryPolicy(new RetryNTimes(3, 1000)));
	}

}
