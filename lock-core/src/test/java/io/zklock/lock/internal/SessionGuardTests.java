package io.zklock.lock.internal;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import io.zklock.lock.FaultyZooKeeper;
import io.zklock.lock.LockState;
import io.zklock.lock.ZkServerTest;
import io.zklock.lock.ZkTestSupport;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.zookeeper.CreateMode;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link SessionGuard}: a confirmation counts only if no connection event arrived
 * since it began (a SUSPENDED racing the confirmation never turns a hold HELD while
 * disconnected), confirmations run on the guard's own thread, never on Curator's shared
 * threads, and a registration never stalls Curator's connection-state thread.
 */
@Timeout(60)
@Tag("slow")
class SessionGuardTests extends ZkServerTest {

	@Test
	void shouldNotConfirmAHoldWhenAConnectionEventArrivedSinceTheConfirmationBegan() throws Exception {
		CuratorFramework client = this.clients.newClient();
		Hold hold = ownedNode(client, "/owned-a");
		try (SessionGuard guard = new SessionGuard(client, (lost) -> {
		})) {
			hold.degrade(LockState.IN_DOUBT);
			guard.confirm(hold, guard.epoch() - 1);
			assertThat(hold.state()).as("an event came between the check and the confirmation").isEqualTo(LockState.IN_DOUBT);
			guard.confirm(hold, guard.epoch());
			assertThat(hold.state()).isEqualTo(LockState.HELD);
		}
	}

	@Test
	void shouldConfirmOnItsOwnThreadAfterAReconnect() throws Exception {
		CuratorFramework client = this.clients.newClient();
		Hold hold = ownedNode(client, "/owned-b");
		try (SessionGuard guard = new SessionGuard(client, (lost) -> {
		})) {
			assertThat(guard.register(hold, guard.epoch())).isTrue();
			server.stop();
			await().atMost(Duration.ofSeconds(20)).until(() -> hold.state() == LockState.IN_DOUBT);
			server.restart();
			await().atMost(Duration.ofSeconds(20)).until(() -> hold.state() == LockState.HELD);
			assertThat(hold.confirmedOn.get()).isEqualTo("zklock-ownership-confirmation");
		}
	}

	@Test
	void shouldRefuseAGrantDecidedBeforeALostSessionAndReportNoLoss() throws Exception {
		CuratorFramework client = this.clients.newClient();
		Hold hold = ownedNode(client, "/owned-c");
		AtomicInteger reported = new AtomicInteger();
		try (SessionGuard guard = new SessionGuard(client, (lost) -> reported.incrementAndGet())) {
			long decidedAt = guard.epoch();
			ZkTestSupport.expireSession(server, client);
			await().atMost(Duration.ofSeconds(20))
				.until(() -> client.getZookeeperClient().isConnected() && guard.epoch() > decidedAt);
			assertThat(guard.register(hold, decidedAt)).as("a grant of the lost session").isFalse();
			assertThat(guard.holds()).doesNotContain(hold);
			assertThat(reported).as("a refused grant was never handed out: no loss to report").hasValue(0);
		}
	}

	@Test
	void shouldDeliverConnectionEventsWhileARegistrationWaitsOnTheClient() throws Exception {
		FaultyZooKeeper.Faults faults = new FaultyZooKeeper.Faults("/owned-d");
		CuratorFramework client = this.clients.newClient((builder) -> builder.zookeeperFactory(FaultyZooKeeper.factory(faults)));
		Hold hold = ownedNode(client, "/owned-d");
		List<ConnectionState> states = new CopyOnWriteArrayList<>();
		ExecutorService registering = Executors.newSingleThreadExecutor();
		try (SessionGuard guard = new SessionGuard(client, (lost) -> {
		})) {
			// Curator tells its listeners in turn on one thread: this one hears an event only
			// after the guard's listener has handled it
			client.getConnectionStateListenable().addListener((c, state) -> states.add(state));
			long decidedAt = guard.epoch();
			Future<Boolean> registered = registering.submit(() -> {
				faults.stallSessionReadOn = Thread.currentThread();
				return guard.register(hold, decidedAt);
			});
			assertThat(faults.sessionReadStalled.await(20, TimeUnit.SECONDS)).isTrue();
			ZkTestSupport.expireSession(server, client);
			await("the session's loss to pass the guard while a registration reads the session")
				.atMost(Duration.ofSeconds(20))
				.until(() -> states.contains(ConnectionState.LOST));
			faults.releaseSessionRead.countDown();
			assertThat(registered.get(20, TimeUnit.SECONDS)).as("a grant of the lost session").isFalse();
			assertThat(guard.holds()).doesNotContain(hold);
		}
		finally {
			faults.releaseSessionRead.countDown();
			registering.shutdownNow();
		}
	}

	private static Hold ownedNode(CuratorFramework client, String path) throws Exception {
		client.create().withMode(CreateMode.EPHEMERAL).forPath(path);
		return new Hold(client.getZookeeperClient().getZooKeeper().getSessionId(), path);
	}

	/** A guarded hold over a plain ephemeral node, recording where it was confirmed. */
	private static final class Hold implements GuardedHold {

		private final long sessionId;

		private final String nodePath;

		private LockState state = LockState.HELD;

		final AtomicReference<String> confirmedOn = new AtomicReference<>();

		Hold(long sessionId, String nodePath) {
			this.sessionId = sessionId;
			this.nodePath = nodePath;
		}

		@Override
		public long sessionId() {
			return this.sessionId;
		}

		@Override
		public String nodePath() {
			return this.nodePath;
		}

		@Override
		public synchronized LockState state() {
			return this.state;
		}

		@Override
		public synchronized @Nullable LockState degrade(LockState next) {
			if (this.state == LockState.LOST || this.state == next) {
				return null;
			}
			LockState left = this.state;
			this.state = next;
			return left;
		}

		@Override
		public synchronized @Nullable Duration confirm(BooleanSupplier stillValid) {
			if (this.state == LockState.IN_DOUBT && stillValid.getAsBoolean()) {
				this.confirmedOn.set(Thread.currentThread().getName());
				this.state = LockState.HELD;
				return Duration.ZERO;
			}
			return null;
		}

	}

}
