package io.zklock.boot35;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.test.EmbeddedZooKeeper;
import io.zklock.test.LockRecorder;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample flow's no-oversell check on Spring Boot 3.5: concurrent reservations through
 * {@code @DistributedLock} neither lose updates nor oversell, and the store sees the fencing
 * tokens ({@code LockContext.currentToken()}) only ever grow.
 */
@EmbeddedZooKeeper
@SpringBootTest(classes = Boot35Application.class, properties = "spring.main.banner-mode=off")
class Boot35InventoryTests {

	private static final int THREADS = 16;

	private static final int PER_THREAD = 25;

	@Autowired
	private Inventory inventory;

	@Autowired
	private FencedStock store;

	@Autowired
	private LockRecorder recorder;

	@Test
	@Timeout(120)
	void shouldNeitherLoseUpdatesNorOversellUnderConcurrentReservations() throws Exception {
		List<String> skus = List.of("race-1", "race-2");
		int initialStock = 120;
		skus.forEach((sku) -> this.inventory.setStock(sku, initialStock));
		this.recorder.clear();
		List<Reservation> reservations = reserveConcurrently(skus);
		assertThat(reservations).hasSize(THREADS * PER_THREAD);
		for (String sku : skus) {
			int acceptedUnits = reservations.stream()
				.filter((reservation) -> reservation.accepted() && reservation.sku().equals(sku))
				.mapToInt(Reservation::quantity)
				.sum();
			assertThat(acceptedUnits).as("units accepted for %s (no oversell)", sku).isLessThanOrEqualTo(initialStock);
			assertThat(this.store.read(sku)).as("stock of %s (no lost update)", sku)
				.isEqualTo(initialStock - acceptedUnits);
			assertThat(this.store.writeTokens(sku)).as("fencing tokens of the writes to %s", sku)
				.isSortedAccordingTo(Long::compare)
				.doesNotHaveDuplicates();
		}
		assertThat(reservations).filteredOn((reservation) -> !reservation.accepted()).isNotEmpty();
		assertThat(this.store.fencingViolations()).isZero();
		assertThat(this.recorder.acquiredPaths()).hasSize(THREADS * PER_THREAD)
			.containsOnly("inventory/race-1", "inventory/race-2");
	}

	private List<Reservation> reserveConcurrently(List<String> skus) throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(THREADS);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<List<Reservation>>> results = new ArrayList<>();
			for (int t = 0; t < THREADS; t++) {
				int thread = t;
				results.add(pool.submit(() -> {
					start.await();
					List<Reservation> made = new ArrayList<>();
					for (int i = 0; i < PER_THREAD; i++) {
						String sku = skus.get((thread + i) % skus.size());
						int quantity = 1 + (thread + i) % 3;
						made.add(new Reservation(sku, quantity, this.inventory.reserve(sku, quantity)));
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
			assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
		}
	}

	private record Reservation(String sku, int quantity, boolean accepted) {

	}

}
