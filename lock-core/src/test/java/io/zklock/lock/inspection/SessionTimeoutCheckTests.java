package io.zklock.lock.inspection;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.zklock.fixtures.CapturedLog;
import io.zklock.lock.ZkTestSupport;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.Watcher.Event.EventType;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.zklock.lock.ZkTestSupport.AWAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link SessionTimeoutCheck} against a real server whose {@code tickTime} is 500 ms and whose
 * {@code maxSessionTimeout} is 4 s (so it grants between 1 s and 4 s): one WARN per session whose
 * granted timeout differs from the requested one, naming both and the server setting to change.
 */
@Timeout(60)
class SessionTimeoutCheckTests {

	private static TestingServer server;

	private CapturedLog log;

	private CuratorFramework client;

	@BeforeAll
	static void startServer() throws Exception {
		server = ZkTestSupport.startServer(Map.of("tickTime", "500", "maxSessionTimeout", "4000"));
	}

	@AfterAll
	static void stopServer() throws Exception {
		server.close();
	}

	@BeforeEach
	void captureLog() {
		this.log = CapturedLog.of(SessionTimeoutCheck.class.getName());
	}

	@AfterEach
	void stopCapture() {
		if (this.client != null) {
			this.client.close();
		}
		this.log.close();
	}

	@Test
	void shouldWarnOnceNamingBothTimeoutsWhenTheServerGrantsAShorterSession() throws Exception {
		this.client = connect(SessionTimeoutCheck.install(builder(10_000), "zklock.zookeeper.session-timeout"));
		long session = this.client.getZookeeperClient().getZooKeeper().getSessionId();
		await().atMost(AWAIT).until(() -> !warnings().isEmpty());
		assertThat(warnings()).singleElement()
			.isEqualTo("The ZooKeeper server granted session 0x" + Long.toHexString(session) + " a timeout of 4000 ms, "
					+ "not the 10000 ms asked for (zklock.zookeeper.session-timeout): servers fit every session's "
					+ "timeout into [minSessionTimeout, maxSessionTimeout], by default 2 and 20 times their tickTime. "
					+ "The session, and every lock it holds, expires after a pause of 4000 ms. To get the timeout "
					+ "asked for, raise maxSessionTimeout (or tickTime) on every server (zoo.cfg), or ask for at most "
					+ "4000 ms.");
		assertThat(this.log.events()).singleElement().extracting(ILoggingEvent::getLevel).isEqualTo(Level.WARN);
	}

	@Test
	void shouldNameMinSessionTimeoutWhenTheServerGrantsALongerSession() throws Exception {
		this.client = connect(SessionTimeoutCheck.install(builder(200)));
		await().atMost(AWAIT).until(() -> !warnings().isEmpty());
		assertThat(warnings()).singleElement()
			.asString()
			.contains("a timeout of 1000 ms, not the 200 ms asked for (the client's sessionTimeoutMs)")
			.contains("The locks of an instance that dies stay held for 1000 ms.")
			.contains("lower minSessionTimeout (or tickTime) on every server (zoo.cfg), or ask for at least 1000 ms.");
	}

	@Test
	void shouldStaySilentWhenTheServerGrantsTheTimeoutAskedFor() throws Exception {
		this.client = connect(SessionTimeoutCheck.install(builder(3000)));
		assertThat(this.client.getZookeeperClient().getZooKeeper().getSessionTimeout()).isEqualTo(3000);
		// a reconnect within the session and a second client's session: no warning either
		server.restart();
		assertThat(this.client.blockUntilConnected(20, TimeUnit.SECONDS)).isTrue();
		try (CuratorFramework other = connect(SessionTimeoutCheck.install(builder(3000)))) {
			assertThat(other.getZookeeperClient().getZooKeeper().getSessionTimeout()).isEqualTo(3000);
		}
		assertThat(warnings()).isEmpty();
	}

	@Test
	void shouldWarnAgainForANewSessionButNotForAReconnectWithinOne() throws Exception {
		this.client = connect(SessionTimeoutCheck.install(builder(10_000)));
		await().atMost(AWAIT).until(() -> warnings().size() == 1);
		ZooKeeper handle = this.client.getZookeeperClient().getZooKeeper();
		long first = handle.getSessionId();

		// the event a reconnect within the session delivers; the expiry's events come after it
		handle.getTestable().queueEvent(new WatchedEvent(EventType.None, KeeperState.SyncConnected, null));
		ZkTestSupport.expireSession(server, this.client);
		await().atMost(AWAIT).until(() -> this.client.getZookeeperClient().isConnected()
				&& this.client.getZookeeperClient().getZooKeeper().getSessionId() != first);
		long second = this.client.getZookeeperClient().getZooKeeper().getSessionId();
		await().atMost(AWAIT).until(() -> warnings().size() >= 2);
		assertThat(warnings()).satisfiesExactly(
				(warning) -> assertThat(warning).contains("session 0x" + Long.toHexString(first) + " "),
				(warning) -> assertThat(warning).contains("session 0x" + Long.toHexString(second) + " "));
	}

	@Test
	void shouldKeepTheClientsOwnFactory() throws Exception {
		CountingZooKeeperFactory counting = new CountingZooKeeperFactory();
		this.client = connect(SessionTimeoutCheck.install(builder(10_000).zookeeperFactory(counting)));
		assertThat(counting.created()).isEqualTo(1);
		await().atMost(AWAIT).until(() -> warnings().size() == 1);
	}

	private static CuratorFrameworkFactory.Builder builder(int sessionTimeoutMs) {
		return CuratorFrameworkFactory.builder()
			.connectString(server.getConnectString())
			.sessionTimeoutMs(sessionTimeoutMs)
			.connectionTimeoutMs(Math.min(sessionTimeoutMs, 5000))
			.retryPolicy(new RetryOneTime(100));
	}

	private static CuratorFramework connect(CuratorFrameworkFactory.Builder builder) throws InterruptedException {
		CuratorFramework client = builder.build();
		client.start();
		assertThat(client.blockUntilConnected(20, TimeUnit.SECONDS)).isTrue();
		return client;
	}

	private List<String> warnings() {
		return this.log.messages(Level.WARN);
	}

	/** A factory of the client's own, which the check must keep using. */
	private static final class CountingZooKeeperFactory implements ZookeeperFactory {

		private final AtomicInteger created = new AtomicInteger();

		@Override
		public ZooKeeper newZooKeeper(String connectString, int sessionTimeout,
				Watcher watcher, boolean canBeReadOnly) throws Exception {
			this.created.incrementAndGet();
			return new ZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly);
		}

		int created() {
			return this.created.get();
		}

	}

}
