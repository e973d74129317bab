package io.zklock.lock;

import java.time.Duration;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A release while the ensemble is unreachable must not hold the business thread for
 * Curator's retries (15 s connection timeout, 3 retries: one synchronous delete alone could
 * take tens of seconds): it hands the delete to the background and returns
 * {@link ReleaseResult#CLEANUP_PENDING} at once, for one lock and for a group; the node goes
 * once the ensemble is back.
 */
@Timeout(90)
@Tag("slow")
class ReleaseWhileDisconnectedTests extends ZkServerTest {

	private static final Logger logger = LoggerFactory.getLogger(ReleaseWhileDisconnectedTests.class);

	/**
	 * The bound the release promises while disconnected: far above the ~0 ms a background
	 * hand-off takes, far below the 9–21 s of Curator's retries a synchronous delete would wait.
	 */
	private static final Duration PROMPT = Duration.ofMillis(100);

	@Test
	void shouldReturnAtOnceAndDeleteInTheBackgroundWhileDisconnected() throws Exception {
		CuratorFramework client = client();
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(client, "/locks");
		LockHandle single = locks.acquire("jobs/single", LockMode.EXCLUSIVE);
		LockGroup group = locks.tryAcquireAll(List.of("jobs/a", "jobs/b", "jobs/c"), LockMode.EXCLUSIVE,
				Duration.ofSeconds(10)).orElseThrow();

		server.stop();
		await().atMost(Duration.ofSeconds(20)).until(() -> !client.getZookeeperClient().isConnected());

		long start = System.nanoTime();
		ReleaseResult singleResult = single.release();
		Duration singleTook = Duration.ofNanos(System.nanoTime() - start);
		start = System.nanoTime();
		ReleaseResult groupResult = group.release();
		Duration groupTook = Duration.ofNanos(System.nanoTime() - start);
		logger.info("release while disconnected: one lock {} ms, a group of three {} ms", singleTook.toMillis(),
				groupTook.toMillis());
		assertThat(singleResult).isEqualTo(ReleaseResult.CLEANUP_PENDING);
		assertThat(groupResult).isEqualTo(ReleaseResult.CLEANUP_PENDING);
		assertThat(singleTook).isLessThan(PROMPT);
		assertThat(groupTook).isLessThan(PROMPT);
		assertThat(single.isHeld()).isFalse();
		assertThat(group.isHeld()).isFalse();

		server.restart();
		CuratorFramework observer = client();
		await().atMost(Duration.ofSeconds(30)).until(() -> lockNodes(observer, "jobs/single").isEmpty()
				&& lockNodes(observer, "jobs/a").isEmpty() && lockNodes(observer, "jobs/b").isEmpty()
				&& lockNodes(observer, "jobs/c").isEmpty());
		ExclusiveLockByCurator rival = new ExclusiveLockByCurator(observer, "/locks");
		rival.tryAcquire("jobs/single", LockMode.EXCLUSIVE, Duration.ZERO).orElseThrow().release();
	}

	private static List<String> lockNodes(CuratorFramework observer, String lockPath) throws Exception {
		String path = "/locks/" + lockPath;
		return (observer.checkExists().forPath(path) != null) ? observer.getChildren().forPath(path) : List.of();
	}

	/** zklock's default client settings: 15 s connection timeout, 3 retries, 60 s session. */
	private CuratorFramework client() {
		return this.clients.newClient((builder) -> builder.sessionTimeoutMs(60_000)
			.connectionTimeoutMs(15_000)
			.retryPolicy(new BoundedExponentialBackoffRetry(100, 5_000, 3)));
	}

}
