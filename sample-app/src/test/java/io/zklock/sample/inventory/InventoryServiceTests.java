package io.zklock.sample.inventory;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.sample.demo.InventoryClient;
import io.zklock.sample.demo.ReservationOutcome;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link InventoryService} with the whole application: zklock's embedded ZooKeeper
 * server on a free port, the lock applied through the service's proxy, and a second
 * {@link InventoryStore} on the same directory standing in for another instance.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "server.address=127.0.0.1", "zklock.zookeeper.embedded.enabled=true",
				"zklock.zookeeper.embedded.port=0", "sample.inventory.work-pause=1ms" })
@Tag("slow")
class InventoryServiceTests {

	private static final Path INVENTORY_DIRECTORY = createDirectory();

	@Autowired
	private InventoryService inventory;

	@Autowired
	private InventoryStore store;

	@Autowired
	private ILockByCurator locks;

	@LocalServerPort
	private int port;

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
	@Timeout(120)
	void shouldNeitherLoseUpdatesNorOversellUnderConcurrentReservations() throws Exception {
		List<String> skus = List.of("race-1", "race-2");
		int initialStock = 120;
		skus.forEach((sku) -> this.inventory.setStock(sku, initialStock));
		long violationsBefore = this.store.getFencingViolationCount();
		List<Reservation> reservations = reserveConcurrently(skus, 16, 25);
		InventoryStore otherInstance = new InventoryStore(this.store.getDirectory());
		for (String sku : skus) {
			List<Reservation> forSku = reservations.stream().filter((r) -> r.sku().equals(sku)).toList();
			int acceptedUnits = forSku.stream().filter(Reservation::accepted).mapToInt(Reservation::quantity).sum();
			assertThat(acceptedUnits).as("units accepted for %s (no oversell)", sku).isLessThanOrEqualTo(initialStock);
			assertThat(otherInstance.read(sku)).as("stock of %s seen by another store client", sku)
				.hasValueSatisfying((record) -> assertThat(record.stock()).isEqualTo(initialStock - acceptedUnits));
			assertTokensReplayStock(sku, initialStock, forSku);
		}
		assertThat(reservations).hasSize(16 * 25);
		assertThat(reservations).filteredOn((r) -> !r.accepted()).isNotEmpty();
		assertThat(this.store.getFencingViolationCount()).isEqualTo(violationsBefore);
	}

	@Test
	@Timeout(30)
	void shouldMakeTheStoreRefuseTheWriteOfAHolderWhoseLockWasSuperseded() {
		long staleToken;
		try (LockHandle paused = this.locks.acquire("inventory/fenced", LockMode.EXCLUSIVE)) {
			staleToken = paused.fencingToken();
		}
		StockLevel level = this.inventory.setStock("fenced", 10);
		assertThat(level.fencingToken()).isGreaterThan(staleToken);
		long violationsBefore = this.store.getFencingViolationCount();
		assertThatExceptionOfType(StaleFencingTokenException.class)
			.isThrownBy(() -> this.store.write("fenced", 9, staleToken));
		assertThat(this.store.getFencingViolationCount()).isEqualTo(violationsBefore + 1);
		assertThat(this.inventory.stock("fenced")).contains(level);
	}

	@Test
	@Timeout(30)
	void shouldReserveOverHttpUnderTheLockAndRefuseToOversell() throws Exception {
		InventoryClient client = new InventoryClient(HttpClient.newHttpClient(),
				URI.create("http://127.0.0.1:" + this.port), "test");
		assertThat(client.stock("http-1")).isEmpty();
		assertThat(client.setStock("http-1", 5).stock()).isEqualTo(5);
		ReservationOutcome first = client.reserve("http-1", 3).get(20, TimeUnit.SECONDS);
		assertThat(first.isAccepted()).isTrue();
		assertThat(first.response().remaining()).isEqualTo(2);
		assertThat(first.response().fencingToken()).isNotNull();
		assertThat(first.response().lockWaitMicros()).isNotNegative();
		ReservationOutcome second = client.reserve("http-1", 3).get(20, TimeUnit.SECONDS);
		assertThat(second.isAnswered()).isTrue();
		assertThat(second.isAccepted()).isFalse();
		assertThat(second.response().remaining()).isEqualTo(2);
		assertThat(second.response().fencingToken()).isGreaterThan(first.response().fencingToken());
		assertThat(client.stock("http-1")).hasValueSatisfying((level) -> assertThat(level.stock()).isEqualTo(2));
		ReservationOutcome invalid = client.reserve("http-1", 0).get(20, TimeUnit.SECONDS);
		assertThat(invalid.status()).isEqualTo(400);
		assertThat(invalid.error()).contains("Quantity must be at least 1, was 0");
		assertThat(client.stats().directory()).isEqualTo(this.store.getDirectory().toString());
	}

	private List<Reservation> reserveConcurrently(List<String> skus, int threads, int perThread) throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<List<Reservation>>> results = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				int thread = t;
				results.add(pool.submit(() -> {
					start.await();
					List<Reservation> made = new ArrayList<>();
					for (int i = 0; i < perThread; i++) {
						made.add(this.inventory.reserve(skus.get((thread + i) % skus.size()), 1 + (thread + i) % 3));
					}
					return made;
				}));
			}
			start.countDown();
			List<Reservation> all = new ArrayList<>();
			for (Future<List<Reservation>> result : results) {
				all.addAll(result.get(100, TimeUnit.SECONDS));
			}
			return all;
		}
		finally {
			pool.shutdownNow();
		}
	}

	/**
	 * Ordered by fencing token, the reservations must be the sequence in which they took
	 * effect: tokens strictly increasing, each accepted one taking its units from what the
	 * previous left, each refused one seeing too little.
	 */
	private static void assertTokensReplayStock(String sku, int initialStock, List<Reservation> reservations) {
		List<Reservation> byToken = reservations.stream()
			.sorted(Comparator.comparing(Reservation::fencingToken))
			.toList();
		assertThat(byToken).extracting(Reservation::fencingToken).doesNotContainNull().doesNotHaveDuplicates();
		int stock = initialStock;
		for (Reservation reservation : byToken) {
			if (reservation.accepted()) {
				stock -= reservation.quantity();
			}
			else {
				assertThat(reservation.quantity()).as("refused reservation %s", reservation).isGreaterThan(stock);
			}
			assertThat(reservation.remaining()).as("stock after %s of %s", reservation, sku).isEqualTo(stock);
		}
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
