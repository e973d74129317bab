package io.zklock.sample.inventory;

import java.nio.file.Path;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.zklock.autoconfigure.embedded.EmbeddedZooKeeperServer;
import io.zklock.lock.LockMode;
import io.zklock.test.BusyLock;
import io.zklock.test.EmbeddedZooKeeper;
import io.zklock.test.LockRecorder;
import io.zklock.test.TestZooKeeper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The locks {@link InventoryService} takes, seen through zklock's test support: the class's own
 * ZooKeeper server replaces the application's embedded one, {@link LockRecorder} records each
 * call's lock and token, and {@link BusyLock} plays another instance.
 */
@EmbeddedZooKeeper
@SpringBootTest(properties = { "sample.inventory.work-pause=0ms", "spring.main.banner-mode=off" })
@Timeout(60)
class InventoryLockTests {

	@TempDir
	static Path inventoryDirectory;

	@Autowired
	private InventoryService inventory;

	@Autowired
	private LockRecorder recorder;

	@Autowired
	private TestZooKeeper zookeeper;

	@DynamicPropertySource
	static void inventoryDirectory(DynamicPropertyRegistry registry) {
		registry.add("sample.inventory.dir", () -> inventoryDirectory.toString());
	}

	@Autowired
	private CuratorFramework client;

	@Autowired
	private ApplicationContext context;

	@BeforeEach
	void clearRecorder() {
		this.recorder.clear();
	}

	@Test
	void shouldUseTheTestServerInsteadOfTheEmbeddedOne() {
		assertThat(this.client.getZookeeperClient().getCurrentConnectionString())
			.isEqualTo(this.zookeeper.connectString());
		assertThat(this.client.getNamespace()).isEqualTo(this.zookeeper.namespace());
		assertThat(this.context.getBeanNamesForType(EmbeddedZooKeeperServer.class)).isEmpty();
	}

	@Test
	void shouldReserveUnderTheSkuLockAndWriteWithItsFencingToken() {
		StockLevel set = this.inventory.setStock("lock-1", 5);
		List<LockRecorder.Acquisition> taken = this.recorder.record(() -> this.inventory.reserve("lock-1", 2));
		assertThat(taken).singleElement().satisfies((acquisition) -> {
			assertThat(acquisition.lockPath()).isEqualTo("inventory/lock-1");
			assertThat(acquisition.mode()).isEqualTo(LockMode.EXCLUSIVE);
			assertThat(acquisition.fencingToken()).isGreaterThan(set.fencingToken());
		});
		assertThat(this.inventory.stock("lock-1")).hasValueSatisfying((level) -> {
			assertThat(level.stock()).isEqualTo(3);
			assertThat(level.fencingToken()).isEqualTo(taken.get(0).fencingToken());
		});
		assertThat(this.recorder.acquisitions()).extracting(LockRecorder.Acquisition::mode)
			.containsExactly(LockMode.WRITE, LockMode.EXCLUSIVE, LockMode.READ);
	}

	@Test
	void shouldReadStockWhileAnotherInstanceReadsIt() {
		this.inventory.setStock("lock-2", 7);
		try (BusyLock otherReader = this.zookeeper.holdElsewhere("inventory/lock-2", LockMode.READ)) {
			assertThat(this.inventory.stock("lock-2")).hasValueSatisfying((level) -> {
				assertThat(level.stock()).isEqualTo(7);
				assertThat(level.fencingToken()).isLessThan(otherReader.fencingToken());
			});
		}
	}

}
