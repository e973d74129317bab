package io.zklock.sample.inventory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;

import io.zklock.lock.ILockByCurator;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for the application with {@code zklock.enabled=false}, as the demo's control run
 * starts it: no ZooKeeper, no lock engine (the one {@link ILockByCurator} refuses every
 * acquire, saying that zklock is disabled), and reservations without fencing tokens.
 */
@SpringBootTest(webEnvironment = WebEnvironment.NONE,
		properties = { "zklock.enabled=false", "zklock.zookeeper.embedded.enabled=false",
				"sample.inventory.work-pause=0ms" })
class InventoryWithoutLockingTests {

	private static final Path INVENTORY_DIRECTORY = createDirectory();

	@Autowired
	private ApplicationContext context;

	@Autowired
	private InventoryService inventory;

	@Autowired
	private InventoryStore store;

	@DynamicPropertySource
	static void inventoryDirectory(DynamicPropertyRegistry registry) {
		registry.add("sample.inventory.dir", INVENTORY_DIRECTORY::toString);
	}

	@AfterAll
	static void deleteInventoryDirectory() throws IOException {
		try (Stream<Path> paths = Files.walk(INVENTORY_DIRECTORY)) {
			for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
				Files.deleteIfExists(path);
			}
		}
	}

	@Test
	@Timeout(30)
	void shouldRunWithoutZooKeeperAndWithoutFencingTokens() {
		assertThat(this.context.getBeanNamesForType(CuratorFramework.class)).isEmpty();
		ILockByCurator locks = this.context.getBean(ILockByCurator.class);
		assertThat(locks.heldLocks()).isEmpty();
		assertThatIllegalStateException().isThrownBy(() -> locks.tryAcquire("plain", Duration.ZERO))
			.withMessageStartingWith("zklock is disabled (zklock.enabled=false)");
		this.inventory.setStock("plain", 3);
		Reservation reservation = this.inventory.reserve("plain", 2);
		assertThat(reservation.accepted()).isTrue();
		assertThat(reservation.remaining()).isEqualTo(1);
		assertThat(reservation.fencingToken()).isNull();
		assertThat(this.store.read("plain")).contains(new StockRecord(1, 0));
	}

	private static Path createDirectory() {
		try {
			return Files.createTempDirectory("zklock-sample-tests");
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot create the inventory directory of the tests", ex);
		}
	}

}
