package io.zklock.test;

import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.platform.testkit.engine.EngineTestKit;

import io.zklock.boot35.Boot35Application;
import io.zklock.boot35.Inventory;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * {@link EmbeddedZooKeeper} on the Boot 3.5 line (JUnit 5.12, Spring Framework 6.2): a Spring
 * Boot test class run through the JUnit platform gets its server, and after the class its
 * context is closed, its server stopped and its data directory deleted.
 */
@Timeout(120)
class Boot35EmbeddedZooKeeperTests {

	static final List<TestZooKeeper> seen = new CopyOnWriteArrayList<>();

	static final List<CuratorFramework> clients = new CopyOnWriteArrayList<>();

	@Test
	void shouldCloseContextAndStopServerAfterTheClass() {
		EngineTestKit.engine("junit-jupiter")
			.selectors(selectClass(SpringExample.class))
			.execute()
			.testEvents()
			.assertStatistics((stats) -> stats.started(1).succeeded(1));
		assertThat(clients).singleElement()
			.satisfies((client) -> assertThat(client.getState()).isEqualTo(CuratorFrameworkState.STOPPED));
		TestZooKeeper zookeeper = seen.get(0);
		assertThat(zookeeper.dataDirectory()).doesNotExist();
		String[] hostAndPort = zookeeper.connectString().split(":");
		assertThatExceptionOfType(ConnectException.class).isThrownBy(() -> {
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress(hostAndPort[0], Integer.parseInt(hostAndPort[1])), 2000);
			}
		});
	}

	/** Run by the test above only: surefire leaves nested classes out. */
	@EmbeddedZooKeeper
	@SpringBootTest(classes = Boot35Application.class, properties = "spring.main.banner-mode=off")
	static class SpringExample {

		@Autowired
		private CuratorFramework client;

		@Autowired
		private TestZooKeeper zookeeper;

		@Autowired
		private Inventory inventory;

		@Test
		void shouldSkipNothingWhileTheLockIsFree() {
			seen.add(this.zookeeper);
			clients.add(this.client);
			try (BusyLock busy = this.zookeeper.holdElsewhere("inventory/other")) {
				this.inventory.setStock("free", 1);
				assertThat(this.inventory.reserve("free", 1)).isTrue();
			}
		}

	}

}
