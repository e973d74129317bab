package io.zklock.test;

import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.platform.testkit.engine.EngineTestKit;

import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockMode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * Tests for {@link EmbeddedZooKeeperExtension}: example test classes run through the JUnit
 * platform, then the server, its data directory, its threads and the Spring context must be
 * gone.
 */
@Timeout(120)
@Tag("slow")
class EmbeddedZooKeeperExtensionTests {

	/** Threads of a ZooKeeper server or client, and of zklock's Curator helpers. */
	private static final Pattern ZOOKEEPER_THREAD = Pattern.compile(
			".*(NIOServerCxn|NIOWorker|SessionTracker|SyncThread|ProcessThread|RequestThrottler|ConnnectionExpirer"
					+ "|ContainerManager|SendThread|EventThread|Curator|zklock).*");

	static final List<TestZooKeeper> seen = new CopyOnWriteArrayList<>();

	static final List<CuratorFramework> clients = new CopyOnWriteArrayList<>();

	@Test
	void shouldStartOneServerPerClassAndStopItAfterTheClassLeavingNothingBehind() {
		Set<Thread> before = Thread.getAllStackTraces().keySet();
		seen.clear();
		EngineTestKit.engine("junit-jupiter")
			.selectors(selectClass(PlainExample.class))
			.execute()
			.testEvents()
			.assertStatistics((stats) -> stats.started(3).succeeded(3));
		assertThat(seen).hasSize(3);
		TestZooKeeper zookeeper = seen.get(0);
		assertThat(seen).allSatisfy((other) -> assertThat(other).isSameAs(zookeeper));
		assertThat(zookeeper.namespace()).startsWith("zklock-test-plainexample-");
		assertStopped(zookeeper, before);
	}

	@Test
	void shouldCloseTheSpringContextBeforeTheServerStops() {
		Set<Thread> before = Thread.getAllStackTraces().keySet();
		seen.clear();
		clients.clear();
		EngineTestKit.engine("junit-jupiter")
			.selectors(selectClass(SpringExample.class))
			.execute()
			.testEvents()
			.assertStatistics((stats) -> stats.started(1).succeeded(1));
		assertThat(clients).singleElement()
			.satisfies((client) -> assertThat(client.getState()).isEqualTo(CuratorFrameworkState.STOPPED));
		assertStopped(seen.get(0), before);
	}

	@Test
	void shouldGiveEveryClassItsOwnServerAndNamespace() {
		seen.clear();
		EngineTestKit.engine("junit-jupiter")
			.selectors(selectClass(PlainExample.class), selectClass(OtherExample.class))
			.execute()
			.testEvents()
			.assertStatistics((stats) -> stats.started(4).succeeded(4));
		assertThat(seen.stream().map(TestZooKeeper::connectString).distinct()).hasSize(2);
		assertThat(seen.stream().map(TestZooKeeper::namespace).distinct()).hasSize(2);
	}

	private static void assertStopped(TestZooKeeper zookeeper, Set<Thread> before) {
		assertThat(zookeeper.dataDirectory()).doesNotExist();
		String[] hostAndPort = zookeeper.connectString().split(":");
		assertThatExceptionOfType(ConnectException.class).isThrownBy(() -> {
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress(hostAndPort[0], Integer.parseInt(hostAndPort[1])), 2000);
			}
		});
		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> !before.contains(thread) && thread.isAlive())
			.map(Thread::getName)
			.filter((name) -> ZOOKEEPER_THREAD.matcher(name).matches())
			.collect(Collectors.toList())).as("threads left behind").isEmpty());
	}

	/** Run by the tests above only: surefire leaves nested classes out. */
	@EmbeddedZooKeeper
	static class PlainExample {

		@Test
		void shouldConnect(TestZooKeeper zookeeper) throws Exception {
			seen.add(zookeeper);
			try (CuratorFramework client = CuratorFrameworkFactory.newClient(zookeeper.connectString(),
					new RetryOneTime(100))) {
				client.start();
				assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
				client.create().forPath("/" + zookeeper.namespace());
			}
		}

		@Test
		void shouldSeeTheSameServer(TestZooKeeper zookeeper) {
			seen.add(zookeeper);
			BusyLock busy = zookeeper.holdElsewhere("example/busy", LockMode.WRITE);
			try (busy) {
				assertThat(busy.isHeld()).isTrue();
				assertThat(busy.lockPath()).isEqualTo("example/busy");
			}
			assertThat(busy.isHeld()).isFalse();
			assertThat(zookeeper.propertyValues()).contains("zklock.zookeeper.connect-string="
					+ zookeeper.connectString(), "zklock.zookeeper.namespace=" + zookeeper.namespace());
		}

		@Nested
		class Inner {

			@Test
			void shouldShareTheServerOfItsEnclosingClass(TestZooKeeper zookeeper) {
				seen.add(zookeeper);
			}

		}

	}

	/** A second class, for servers per class. */
	@EmbeddedZooKeeper
	static class OtherExample {

		@Test
		void shouldConnect(TestZooKeeper zookeeper) {
			seen.add(zookeeper);
		}

	}

	/** A Spring Boot test whose context must be closed before its server stops. */
	@EmbeddedZooKeeper
	@SpringBootTest(classes = LockedOrders.Application.class)
	static class SpringExample {

		@Autowired
		private CuratorFramework client;

		@Autowired
		private ILockByCurator locks;

		@Autowired
		private TestZooKeeper zookeeper;

		@Test
		void shouldLock() {
			seen.add(this.zookeeper);
			clients.add(this.client);
			this.locks.acquire("example", LockMode.EXCLUSIVE).close();
		}

	}

}
