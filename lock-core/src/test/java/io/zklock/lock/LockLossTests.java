package io.zklock.lock;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.zklock.lock.event.LockListener;
import io.zklock.lock.event.LockTarget;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.SessionConnectionStateErrorPolicy;
import org.apache.curator.retry.RetryNTimes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Lock loss on real connection and session failures: a held lock is in doubt while the
 * connection is suspended, held again once ownership is confirmed after a reconnect within
 * the session, and lost for good when the session expires; listeners are told which
 * ({@link LockListener#onInDoubt}, {@link LockListener#onConfirmed}, {@link LockListener#onLost}).
 * Session timeout 4 s.
 */
@Timeout(120)
@Tag("slow")
class LockLossTests extends ZkServerTest {

	private static final Logger logger = LoggerFactory.getLogger(LockLossTests.class);

	private static final int SESSION_TIMEOUT_MS = 4000;

	@Test
	void shouldLoseTheLockWhenTheSessionExpiresAndGiveTheRivalALargerToken() throws Exception {
		CuratorFramework holderClient = client(false);
		ExclusiveLockByCurator holder = new ExclusiveLockByCurator(holderClient, "/locks");
		ExclusiveLockByCurator rival = new ExclusiveLockByCurator(client(false), "/locks");
		RecordingListener events = new RecordingListener();
		holder.engine().addListener(events);
		LockHandle lock = holder.tryAcquire("jobs", LockMode.EXCLUSIVE, Duration.ZERO).orElseThrow();
		AtomicInteger lossCalls = new AtomicInteger();
		lock.onLost((handle) -> lossCalls.incrementAndGet());

		long fault = System.nanoTime();
		ZkTestSupport.expireSession(server, holderClient);
		await().atMost(Duration.ofSeconds(SESSION_TIMEOUT_MS / 1000 * 2)).until(() -> lock.state() == LockState.LOST);
		long lostAfterMs = (System.nanoTime() - fault) / 1_000_000;
		logger.info("session expired -> isHeld()=false after {} ms (LOST)", lostAfterMs);

		assertThat(lock.isHeld()).isFalse();
		LockHandle rivalLock = rival.tryAcquire("jobs", LockMode.EXCLUSIVE, Duration.ofSeconds(10)).orElseThrow();
		assertThat(rivalLock.fencingToken()).isGreaterThan(lock.fencingToken());
		await().atMost(Duration.ofSeconds(10)).until(() -> holderClient.getZookeeperClient().isConnected());
		assertThat(lock.state()).isEqualTo(LockState.LOST);
		assertThat(lossCalls).hasValue(1);
		assertThat(events.events()).filteredOn((event) -> event.type() == RecordingListener.Type.LOST).singleElement()
			.satisfies((event) -> assertThat(event.fencingToken()).isEqualTo(lock.fencingToken()));
		assertThat(lock.release()).isEqualTo(ReleaseResult.LOST);
		assertThat(rivalLock.release()).isEqualTo(ReleaseResult.RELEASED);
	}

	@Test
	void shouldKeepTheLockAfterConfirmationWhenTheConnectionComesBackWithinTheSession() throws Exception {
		CuratorFramework holderClient = client(false);
		ExclusiveLockByCurator holder = new ExclusiveLockByCurator(holderClient, "/locks");
		RecordingListener events = new RecordingListener();
		holder.engine().addListener(events);
		LockHandle lock = holder.tryAcquire("jobs", LockMode.EXCLUSIVE, Duration.ZERO).orElseThrow();
		List<LockState> seenByListener = new CopyOnWriteArrayList<>();
		lock.onLost((handle) -> seenByListener.add(handle.state()));

		long fault = System.nanoTime();
		server.stop();
		await().atMost(Duration.ofSeconds(SESSION_TIMEOUT_MS / 1000)).until(() -> lock.state() == LockState.IN_DOUBT);
		long doubtAfterMs = (System.nanoTime() - fault) / 1_000_000;
		logger.info("connection dropped -> isHeld()=false after {} ms (SUSPENDED)", doubtAfterMs);
		assertThat(lock.isHeld()).isFalse();

		server.restart();
		await().atMost(Duration.ofSeconds(10)).until(() -> lock.state() == LockState.HELD);
		assertThat(lock.isHeld()).isTrue();
		assertThat(seenByListener).containsExactly(LockState.IN_DOUBT);
		// listeners tell the doubt from a loss: in doubt, then confirmed again, never lost
		await().atMost(Duration.ofSeconds(5)).until(() -> events.types().contains(RecordingListener.Type.CONFIRMED));
		assertThat(events.types()).containsExactly(RecordingListener.Type.ACQUIRING, RecordingListener.Type.ACQUIRED,
				RecordingListener.Type.IN_DOUBT, RecordingListener.Type.CONFIRMED);
		assertThat(events.events()).filteredOn((event) -> event.type() != RecordingListener.Type.ACQUIRING)
			.allSatisfy((event) -> assertThat(event.fencingToken()).isEqualTo(lock.fencingToken()));
		ExclusiveLockByCurator rival = new ExclusiveLockByCurator(client(false), "/locks");
		assertThat(rival.tryAcquire("jobs", LockMode.EXCLUSIVE, Duration.ofMillis(200))).isEmpty();
		assertThat(lock.release()).isEqualTo(ReleaseResult.RELEASED);
		assertThat(rival.tryAcquire("jobs", LockMode.EXCLUSIVE, Duration.ofSeconds(5))).isPresent();
	}

	@Test
	void shouldLoseTheLockWhenTheConnectionIsGonePastTheSession() throws Exception {
		CuratorFramework holderClient = client(false);
		ExclusiveLockByCurator holder = new ExclusiveLockByCurator(holderClient, "/locks");
		RecordingListener events = new RecordingListener();
		holder.engine().addListener(events);
		LockHandle lock = holder.tryAcquire("jobs", LockMode.EXCLUSIVE, Duration.ZERO).orElseThrow();
		AtomicLong lostAt = new AtomicLong();
		holder.engine().addListener(new LockListener() {
			@Override
			public void onLost(LockTarget target, long fencingToken, Duration heldFor) {
				lostAt.set(System.nanoTime());
			}
		});

		long fault = System.nanoTime();
		server.stop();
		await().atMost(Duration.ofSeconds(SESSION_TIMEOUT_MS / 1000 * 3)).until(() -> lock.state() == LockState.LOST);
		logger.info("connection dropped past the session -> LOST after {} ms", (lostAt.get() - fault) / 1_000_000);
		server.restart();
		await().atMost(Duration.ofSeconds(20)).until(() -> holderClient.getZookeeperClient().isConnected());
		assertThat(lock.state()).isEqualTo(LockState.LOST);
		assertThat(events.types()).containsExactly(RecordingListener.Type.ACQUIRING, RecordingListener.Type.ACQUIRED,
				RecordingListener.Type.IN_DOUBT, RecordingListener.Type.LOST);
		ExclusiveLockByCurator rival = new ExclusiveLockByCurator(client(false), "/locks");
		LockHandle rivalLock = rival.tryAcquire("jobs", LockMode.EXCLUSIVE, Duration.ofSeconds(10)).orElseThrow();
		assertThat(rivalLock.fencingToken()).isGreaterThan(lock.fencingToken());
		assertThat(lock.release()).isEqualTo(ReleaseResult.LOST);
	}

	@Test
	void shouldKeepTheLockWhileSuspendedUnderTheSessionPolicy() throws Exception {
		CuratorFramework holderClient = client(true);
		ExclusiveLockByCurator holder = new ExclusiveLockByCurator(holderClient, "/locks");
		LockHandle lock = holder.tryAcquire("jobs", LockMode.EXCLUSIVE, Duration.ZERO).orElseThrow();
		List<ConnectionState> states = new CopyOnWriteArrayList<>();
		holderClient.getConnectionStateListenable().addListener((c, state) -> states.add(state));
		AtomicInteger lossCalls = new AtomicInteger();
		lock.onLost((handle) -> lossCalls.incrementAndGet());
		RecordingListener events = new RecordingListener();
		holder.engine().addListener(events);

		server.stop();
		await().atMost(Duration.ofSeconds(SESSION_TIMEOUT_MS / 1000)).until(() -> states.contains(ConnectionState.SUSPENDED));
		assertThat(lock.isHeld()).isTrue();
		server.restart();
		await().atMost(Duration.ofSeconds(10)).until(() -> states.contains(ConnectionState.RECONNECTED));
		assertThat(lock.isHeld()).isTrue();
		assertThat(lossCalls).hasValue(0);
		assertThat(events.types()).isEmpty();
		assertThat(lock.release()).isEqualTo(ReleaseResult.RELEASED);
	}

	@Test
	void shouldCallALossListenerRegisteredAfterTheLossAtOnce() throws Exception {
		CuratorFramework holderClient = client(false);
		ExclusiveLockByCurator holder = new ExclusiveLockByCurator(holderClient, "/locks");
		LockHandle lock = holder.tryAcquire("jobs", LockMode.EXCLUSIVE, Duration.ZERO).orElseThrow();
		ZkTestSupport.expireSession(server, holderClient);
		await().atMost(Duration.ofSeconds(10)).until(() -> lock.state() == LockState.LOST);
		AtomicInteger calls = new AtomicInteger();
		lock.onLost((handle) -> calls.incrementAndGet());
		assertThat(calls).hasValue(1);
	}

	private CuratorFramework client(boolean sessionPolicy) {
		return this.clients.newClient((builder) -> {
			builder.sessionTimeoutMs(SESSION_TIMEOUT_MS).connectionTimeoutMs(1000).retryPolicy(new RetryNTimes(3, 100));
			if (sessionPolicy) {
				builder.connectionStateErrorPolicy(new SessionConnectionStateErrorPolicy());
			}
		});
	}

}
