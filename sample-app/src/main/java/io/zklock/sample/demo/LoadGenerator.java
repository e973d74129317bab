package io.zklock.sample.demo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Sends the demo's reservations: random SKUs and quantities (1 to 3 units, seeded), spread
 * round-robin over the instances, with a bounded number in flight.
 */
final class LoadGenerator {

	private static final Duration TIMEOUT = Duration.ofMinutes(2);

	private LoadGenerator() {
	}

	/**
	 * Sends {@code requests} reservations and waits for all answers.
	 * @param clients one client per instance
	 * @param skus the SKUs to pick from
	 * @param requests how many reservations to send
	 * @param concurrency how many may be in flight at once
	 * @param seed the random seed
	 * @return one outcome per request, in sending order
	 * @throws IllegalStateException if the answers do not all arrive within two minutes or the
	 * thread is interrupted
	 */
	static List<ReservationOutcome> run(List<InventoryClient> clients, List<String> skus, int requests,
			int concurrency, long seed) {
		Random random = new Random(seed);
		Semaphore inFlight = new Semaphore(concurrency);
		List<CompletableFuture<ReservationOutcome>> answers = new ArrayList<>(requests);
		try {
			for (int i = 0; i < requests; i++) {
				String sku = skus.get(random.nextInt(skus.size()));
				int quantity = 1 + random.nextInt(3);
				InventoryClient client = clients.get(i % clients.size());
				inFlight.acquire();
				answers.add(client.reserve(sku, quantity).whenComplete((outcome, failure) -> inFlight.release()));
			}
			CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while sending reservations", ex);
		}
		catch (TimeoutException ex) {
			throw new IllegalStateException("Not all " + requests + " reservations were answered within "
					+ TIMEOUT.toSeconds() + " s", ex);
		}
		catch (ExecutionException ex) {
			throw new IllegalStateException("A reservation failed unexpectedly", ex.getCause());
		}
		return answers.stream().map(CompletableFuture::join).toList();
	}

}
