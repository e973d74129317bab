package io.zklock.lock;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.retry.RetryNTimes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Acquires while the ensemble cannot be reached: a wait that runs out says that the client
 * was not connected, and since when, instead of reading like contention; an acquire without a
 * wait waits for the connection and then for the lock. Session timeout 20 s, so the session
 * outlives the outage.
 */
@Timeout(60)
@Tag("slow")
class DisconnectedAcquireTests extends ZkServerTest {

	@Test
	void shouldSayTheClientWasNotConnectedWhenTheWaitRanOutWhileDisconnected() throws Exception {
		CuratorFramework client = client();
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(client, "/locks");
		server.stop();
		try {
			await().atMost(ZkTestSupport.AWAIT).until(() -> !client.getZookeeperClient().isConnected());
			Instant disconnectedSince = locks.engine().disconnectedSince().orElseThrow();
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> locks.acquire(LockRequest.of("orders/42", LockMode.EXCLUSIVE)
					.waitAtMost(Duration.ofSeconds(1))))
				.withMessageStartingWith("Could not acquire the EXCLUSIVE lock on 'orders/42' within 1s: the "
						+ "ZooKeeper client was not connected (since ")
				.withMessageContaining("(since " + disconnectedSince + ", ")
				.withMessageEndingWith("ms when the wait ran out): the wait ran out for the connection, not for the "
						+ "lock's holders. Check that the ensemble can be reached.");
		}
		finally {
			server.restart();
		}
	}

	@Test
	void shouldReadAsContentionWhileConnected() {
		ExclusiveLockByCurator holder = new ExclusiveLockByCurator(client(), "/locks");
		ExclusiveLockByCurator rival = new ExclusiveLockByCurator(client(), "/locks");
		assertThat(rival.engine().disconnectedSince()).isEmpty();
		try (LockHandle held = holder.acquire("orders/7", LockMode.EXCLUSIVE)) {
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> rival.acquire(LockRequest.of("orders/7", LockMode.EXCLUSIVE)
					.waitAtMost(Duration.ofMillis(200))))
				.withMessageStartingWith("Could not acquire the EXCLUSIVE lock on 'orders/7' within 200ms: it waited for "
						+ "lock node ")
				.withMessageContaining(" (the holder's), which belongs to host ")
				.withMessageNotContaining("not connected");
		}
	}

	@Test
	void shouldWaitForTheConnectionWhenAcquiringWithoutAWait() throws Exception {
		CuratorFramework client = client();
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(client, "/locks");
		RecordingListener events = new RecordingListener();
		locks.engine().addListener(events);
		server.stop();
		CompletableFuture<LockHandle> acquired;
		try {
			await().atMost(ZkTestSupport.AWAIT).until(() -> !client.getZookeeperClient().isConnected());
			acquired = CompletableFuture.supplyAsync(() -> locks.acquire("orders/9", LockMode.EXCLUSIVE));
			await().atMost(ZkTestSupport.AWAIT).until(() -> events.types().contains(RecordingListener.Type.ACQUIRING));
			assertThat(acquired).isNotDone();
		}
		finally {
			server.restart();
		}
		assertThat(acquired).succeedsWithin(ZkTestSupport.AWAIT).satisfies((lock) -> {
			assertThat(lock.isHeld()).isTrue();
			lock.release();
		});
	}

	private CuratorFramework client() {
		return this.clients.newClient((builder) -> builder.sessionTimeoutMs(20_000)
			.connectionTimeoutMs(1000)
			.retryPolicy(new RetryNTimes(3, 100)));
	}

}
