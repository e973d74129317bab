package io.zklock.lock.internal;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import io.zklock.fixtures.BlackHoleProxy;
import io.zklock.lock.FaultyZooKeeper;
import io.zklock.lock.LockState;
import io.zklock.lock.ZkServerTest;
import io.zklock.lock.ZkTestSupport;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.Watcher.Event.EventType;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooKeeper;
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
 * threads, a registration never stalls Curator's connection-state thread, and a disconnect
 * ZooKeeper's client does not announce still puts holds in doubt.
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

	/**
	 * ZooKeeper's event thread drops the Disconnected event of a connection that ends while a watch
	 * removal awaits its reply (the removal's failure queues a watch event in the state
	 * Disconnected first), and Curator then says nothing: no SUSPENDED, no RECONNECTED. The guard
	 * sees the reconnect it was not told the disconnect of, and puts the hold in doubt.
	 */
	@Test
	void shouldPutHoldsInDoubtAtAReconnectWhoseDisconnectZooKeeperDidNotAnnounce() throws Exception {
		try (BlackHoleProxy proxy = new BlackHoleProxy("guard-e", List.of(server.getPort()))) {
			List<ConnectionState> states = new CopyOnWriteArrayList<>();
			CuratorFramework client = clientThrough(proxy, states);
			Hold hold = ownedNode(client, "/owned-e");
			try (SessionGuard guard = new SessionGuard(client, (lost) -> {
			})) {
				assertThat(guard.register(hold, guard.epoch())).isTrue();
				ZooKeeper zooKeeper = client.getZookeeperClient().getZooKeeper();
				Watcher other = (event) -> {
				};
				zooKeeper.getData("/" + client.getNamespace() + "/owned-e", other, null);

				endConnectionDuringRemoval(proxy, zooKeeper, "/" + client.getNamespace() + "/owned-e");
				await("the hold in doubt").atMost(Duration.ofSeconds(20)).until(() -> hold.wasInDoubt.get());
				await("the hold confirmed").atMost(Duration.ofSeconds(20)).until(() -> hold.state() == LockState.HELD);
				assertThat(zooKeeper.getSessionId()).as("the same session").isEqualTo(hold.sessionId());
				assertThat(states).as("what Curator said of the disconnect").doesNotContain(ConnectionState.SUSPENDED);
			}
		}
	}

	/**
	 * A guard built just after the client connected can still hear the SyncConnected of that
	 * connection (ZooKeeper sets the client's connected flag before its listeners hear the event):
	 * the event of the connection it began on is no reconnect, and puts nothing in doubt.
	 */
	@Test
	void shouldTakeTheConnectEventOfTheConnectionItBeganOnForNoReconnect() throws Exception {
		CuratorFramework client = this.clients.newClient();
		Hold hold = ownedNode(client, "/owned-g");
		try (SessionGuard guard = new SessionGuard(client, (lost) -> {
		})) {
			assertThat(guard.register(hold, guard.epoch())).isTrue();
			long epoch = guard.epoch();
			guard.connectionEvent(KeeperState.SyncConnected);
			await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5))
				.until(() -> hold.state() == LockState.HELD && guard.epoch() == epoch);
			assertThat(hold.wasInDoubt).isFalse();
		}
	}

	/**
	 * The same dropped Disconnected, when the removal that failed was one of zklock's own: its
	 * watch event (state Disconnected) reaches the guard through {@link RawWatches}, which puts
	 * the hold in doubt at once, while the client is still away.
	 */
	@Test
	void shouldPutHoldsInDoubtAtOnceWhenItsOwnWatchRemovalFailsWithTheConnection() throws Exception {
		try (BlackHoleProxy proxy = new BlackHoleProxy("guard-f", List.of(server.getPort()))) {
			List<ConnectionState> states = new CopyOnWriteArrayList<>();
			CuratorFramework client = clientThrough(proxy, states);
			Hold hold = ownedNode(client, "/owned-f");
			try (SessionGuard guard = new SessionGuard(client, (lost) -> {
			})) {
				assertThat(guard.register(hold, guard.epoch())).isTrue();
				RawWatches.Registration watch = dataWatch(client, guard, "/owned-f");

				proxy.blackHole();
				watch.remove();
				proxy.reset();
				await("the hold in doubt while the client is away").atMost(Duration.ofSeconds(10))
					.until(() -> hold.state() == LockState.IN_DOUBT);
				assertThat(guard.isConnected()).as("the guard's word while away").isFalse();
				assertThat(states).as("what Curator said of the disconnect").doesNotContain(ConnectionState.SUSPENDED);

				proxy.heal();
				await("the hold confirmed").atMost(Duration.ofSeconds(20)).until(() -> hold.state() == LockState.HELD);
				assertThat(guard.isConnected()).isTrue();
			}
		}
	}

	@Test
	void shouldPutTheHoldsOfEveryEngineOnTheClientInDoubtWhenOneEnginesWatchRemovalFails() throws Exception {
		try (BlackHoleProxy proxy = new BlackHoleProxy("guard-g", List.of(server.getPort()))) {
			List<ConnectionState> states = new CopyOnWriteArrayList<>();
			CuratorFramework client = clientThrough(proxy, states);
			Hold hold = ownedNode(client, "/owned-g");
			try (SessionGuard watching = new SessionGuard(client, (lost) -> {
			}); SessionGuard holding = new SessionGuard(client, (lost) -> {
			})) {
				// the hold is another engine's: only the first guard hears the failed removal
				assertThat(holding.register(hold, holding.epoch())).isTrue();
				RawWatches.Registration watch = dataWatch(client, watching, "/owned-g");

				proxy.blackHole();
				watch.remove();
				proxy.reset();
				await("the other engine's hold in doubt while the client is away").atMost(Duration.ofSeconds(10))
					.until(() -> hold.state() == LockState.IN_DOUBT);
				assertThat(holding.isConnected()).as("the other engine's guard while away").isFalse();
				assertThat(watching.isConnected()).as("the guard whose watch it was").isFalse();
				assertThat(states).as("what Curator said of the disconnect").doesNotContain(ConnectionState.SUSPENDED);

				proxy.heal();
				await("the hold confirmed").atMost(Duration.ofSeconds(20)).until(() -> hold.state() == LockState.HELD);
				assertThat(holding.isConnected()).isTrue();
				assertThat(watching.isConnected()).isTrue();
			}
		}
	}

	@Test
	void shouldNotTellAGuardOfAnotherClientOfAFailedRemoval() throws Exception {
		try (BlackHoleProxy proxy = new BlackHoleProxy("guard-h", List.of(server.getPort()))) {
			CuratorFramework client = clientThrough(proxy, new CopyOnWriteArrayList<>());
			CuratorFramework other = this.clients.newClient();
			Hold hold = ownedNode(other, "/owned-h");
			ownedNode(client, "/owned-h-watched");
			try (SessionGuard watching = new SessionGuard(client, (lost) -> {
			}); SessionGuard elsewhere = new SessionGuard(other, (lost) -> {
			})) {
				assertThat(elsewhere.register(hold, elsewhere.epoch())).isTrue();
				RawWatches.Registration watch = dataWatch(client, watching, "/owned-h-watched");

				proxy.blackHole();
				watch.remove();
				proxy.reset();
				await("the failed removal heard").atMost(Duration.ofSeconds(10)).until(() -> !watching.isConnected());
				assertThat(elsewhere.isConnected()).as("a client with a connection of its own").isTrue();
				assertThat(hold.state()).isEqualTo(LockState.HELD);
				proxy.heal();
			}
		}
	}

	@Test
	void shouldIgnoreAFailedRemovalOfAHandleWhoseSessionEnded() throws Exception {
		CuratorFramework client = this.clients.newClient();
		client.create().withMode(CreateMode.EPHEMERAL).forPath("/owned-i-watched");
		try (SessionGuard guard = new SessionGuard(client, (lost) -> {
		})) {
			RawWatches.Registration stale = dataWatch(client, guard, "/owned-i-watched");
			ZooKeeper old = client.getZookeeperClient().getZooKeeper();
			ZkTestSupport.expireSession(server, client);
			await("a new session on a new handle").atMost(Duration.ofSeconds(20))
				.until(() -> client.getZookeeperClient().isConnected() && guard.isConnected()
						&& client.getZookeeperClient().getZooKeeper() != old);
			Hold hold = ownedNode(client, "/owned-i");
			assertThat(guard.register(hold, guard.epoch())).isTrue();
			await("the new hold held").atMost(Duration.ofSeconds(20)).until(() -> hold.state() == LockState.HELD);

			// what the old handle's event thread can deliver after the new handle connected: its
			// removal, still queued when the session ended, failed with it
			stale.process(new WatchedEvent(EventType.DataWatchRemoved, KeeperState.Disconnected, "/owned-i-watched"));
			assertThat(guard.isConnected()).as("the guard, after an event of the ended session's handle").isTrue();
			assertThat(hold.state()).isEqualTo(LockState.HELD);
		}
	}

	/**
	 * Ends the connection while a removal of every watch of {@code path} waits for its reply: the
	 * proxy swallows the request, closes the connection, then forwards again (a connection the
	 * client opened meanwhile lost its bytes, and the proxy closes it too).
	 */
	private static void endConnectionDuringRemoval(BlackHoleProxy proxy, ZooKeeper zooKeeper, String path) {
		proxy.blackHole();
		zooKeeper.removeAllWatches(path, Watcher.WatcherType.Any, true, (rc, p, ctx) -> {
		}, null);
		proxy.reset();
		proxy.heal();
	}

	/**
	 * Sets a data watch of zklock's own on {@code path} through {@code client}, its events heard by
	 * {@code guard} as an engine's are, and waits until it is set.
	 */
	private static RawWatches.Registration dataWatch(CuratorFramework client, SessionGuard guard, String path)
			throws InterruptedException {
		CountDownLatch set = new CountDownLatch(1);
		RawWatches.Registration watch = new RawWatches(client, guard::watchEvent).getData(path, (event) -> {
		}, (rc, data, stat) -> set.countDown());
		assertThat(set.await(10, TimeUnit.SECONDS)).as("the watch on " + path + " set").isTrue();
		return watch;
	}

	/** A client connected through {@code proxy}; {@code states} records what Curator says of the connection. */
	private CuratorFramework clientThrough(BlackHoleProxy proxy, List<ConnectionState> states) {
		CuratorFramework client = this.clients.newClient((builder) -> builder.connectString(proxy.connectString()));
		client.getConnectionStateListenable().addListener((c, state) -> states.add(state));
		return client;
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

		final AtomicBoolean wasInDoubt = new AtomicBoolean();

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
			if (next == LockState.IN_DOUBT) {
				this.wasInDoubt.set(true);
			}
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
