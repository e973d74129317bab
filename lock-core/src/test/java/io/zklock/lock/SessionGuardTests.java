package io.zklock.lock;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link SessionGuard}: a confirmation counts only if no connection event arrived
 * since it began (a SUSPENDED racing the confirmation never turns a hold HELD while
 * disconnected), and confirmations run on the guard's own thread, never on Curator's shared
 * threads.
 */
@Timeout(60)
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
		public synchronized boolean degrade(LockState next) {
			if (this.state == LockState.LOST || this.state == next) {
				return false;
			}
			this.state = next;
			return next == LockState.LOST;
		}

		@Override
		public synchronized void confirm(BooleanSupplier stillValid) {
			if (this.state == LockState.IN_DOUBT && stillValid.getAsBoolean()) {
				this.confirmedOn.set(Thread.currentThread().getName());
				this.state = LockState.HELD;
			}
		}

	}

}
