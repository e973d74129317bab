package io.zklock.sample.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The load demo behind {@code ./demo.sh}: starts three instances of the sample application
 * sharing one inventory directory (the first hosting an embedded ZooKeeper server, the others
 * connected to it), sets the stock of a few SKUs, sends a few thousand concurrent
 * reservations round-robin over the instances, and prints what the stock shows: with zklock
 * no update is lost and nothing is oversold; with {@code --no-lock} both happen. With
 * {@code --keep-running} the instances stay up after the load, their live lock pages' URLs
 * printed, until Ctrl-C.
 *
 * <p>
 * Run it from the repository root after building, from the repackaged jar:
 * <pre>
 * java -cp sample-app/target/zklock-sample-app.jar -Dloader.main=io.zklock.sample.demo.InventoryDemo \
 *     org.springframework.boot.loader.launch.PropertiesLauncher [--no-lock] [--help]
 * </pre>
 * Exits with 0 when the run completed (whether or not the safety check passed), 1 if it could
 * not complete, 2 on bad options. Every instance it started is stopped, also on failure or
 * Ctrl-C.
 */
public final class InventoryDemo {

	private final DemoOptions options;

	private static final Duration CLEAN_UP_BOUND = Duration.ofSeconds(60);

	private volatile boolean interrupted;

	/** Counted down when the JVM shuts down (Ctrl-C). */
	private final CountDownLatch stopRequested = new CountDownLatch(1);

	/** Counted down when the instances are stopped and the run directory is handled. */
	private final CountDownLatch cleanedUp = new CountDownLatch(1);

	private InventoryDemo(DemoOptions options) {
		this.options = options;
	}

	/**
	 * Runs the demo.
	 * @param args the options, see {@link DemoOptions#USAGE}
	 */
	public static void main(String[] args) {
		if (List.of(args).contains("--help")) {
			System.out.print(DemoOptions.USAGE);
			return;
		}
		DemoOptions options;
		try {
			options = DemoOptions.parse(args);
		}
		catch (IllegalArgumentException ex) {
			System.err.println(ex.getMessage());
			System.exit(2);
			return;
		}
		System.exit(new InventoryDemo(options).run());
	}

	private int run() {
		Path runDirectory = createRunDirectory();
		// on Ctrl-C the instances stop under the running demo: report that, not what fails next;
		// with --keep-running, Ctrl-C is the way to stop, and the JVM waits for the clean-up
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			this.interrupted = true;
			this.stopRequested.countDown();
			if (this.options.keepRunning()) {
				awaitQuietly(this.cleanedUp, CLEAN_UP_BOUND);
			}
		}, "zklock-demo-stop"));
		boolean completed = false;
		try {
			runDemo(runDirectory.resolve("inventory"), runDirectory.resolve("logs"), runDirectory);
			completed = true;
			return 0;
		}
		catch (RuntimeException ex) {
			System.err.println();
			System.err.println(this.interrupted ? "The demo was interrupted."
					: "The demo could not complete: " + ex.getMessage());
			return 1;
		}
		finally {
			if (completed && !this.options.keepFiles()) {
				deleteRecursively(runDirectory);
			}
			else {
				System.out.println("Instance logs and stock files: " + runDirectory);
			}
			this.cleanedUp.countDown();
		}
	}

	private void runDemo(Path inventoryDirectory, Path logDirectory, Path runDirectory) {
		createDirectories(inventoryDirectory, logDirectory);
		HttpClient http = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(5))
			.build();
		System.out.printf("zklock inventory demo: 3 instances, locking %s, %d reservations of 1-3 units over %d SKUs "
				+ "of %d units each%n", this.options.locking() ? "ON" : "OFF (--no-lock)", this.options.requests(),
				this.options.skus(), this.options.initialStock());
		long startedAt = System.nanoTime();
		try (AppCluster cluster = AppCluster.start(this.options, inventoryDirectory, logDirectory, http)) {
			System.out.printf("Started in %.1f s: %s%s%n", seconds(System.nanoTime() - startedAt),
					String.join(", ", cluster.instances().stream().map((i) -> i.name() + " " + i.baseUri()).toList()),
					(cluster.zooKeeperAddress() != null)
							? "; embedded ZooKeeper in instance-1 at " + cluster.zooKeeperAddress() : "; no ZooKeeper");
			List<InventoryClient> clients = cluster.clients();
			Map<String, Integer> initialStock = setInitialStock(clients);
			System.out.printf("Sending %d reservations, %d in flight, round-robin over the instances...%n",
					this.options.requests(), this.options.concurrency());
			long loadStartedAt = System.nanoTime();
			List<ReservationOutcome> outcomes = LoadGenerator.run(clients, List.copyOf(initialStock.keySet()),
					this.options.requests(), this.options.concurrency(), this.options.seed());
			Duration elapsed = Duration.ofNanos(System.nanoTime() - loadStartedAt);
			Map<String, Integer> finalStock = new LinkedHashMap<>();
			for (String sku : initialStock.keySet()) {
				finalStock.put(sku, clients.get(0).stock(sku).orElseThrow().stock());
			}
			long fencingViolations = clients.stream().mapToLong((client) -> client.stats().fencingViolations()).sum();
			DemoSummary.of(this.options.locking(), outcomes, initialStock, finalStock, fencingViolations, elapsed)
				.print(System.out);
			if (this.options.keepRunning()) {
				keepRunning(cluster, runDirectory);
			}
		}
		System.out.println("Stopped all instances.");
	}

	/** Leaves the instances running, says where their live pages are, and waits for Ctrl-C. */
	private void keepRunning(AppCluster cluster, Path runDirectory) {
		List<AppInstance> instances = cluster.instances();
		String first = instances.get(0).baseUri().toString();
		System.out.println();
		System.out.println("The instances keep running (--keep-running). The live lock page of each:");
		for (AppInstance instance : instances) {
			boolean host = instance == instances.get(0) && cluster.zooKeeperAddress() != null;
			System.out.printf("  %s  %s/%s%n", instance.name(), instance.baseUri(),
					host ? "   (hosts the embedded ZooKeeper at " + cluster.zooKeeperAddress() + ")" : "");
		}
		System.out.println("To watch reservations queue for a lock, restock a SKU and send a few thousand, 32 at a time:");
		System.out.println("  curl -s -X PUT '" + first + "/inventory/sku-1?stock=100000'");
		System.out.println("  seq 5000 | xargs -P 32 -I{} curl -s -o /dev/null -X POST '" + first
				+ "/inventory/sku-1/reserve?qty=1'");
		System.out.println("Logs and stock files: " + runDirectory);
		System.out.println("Press Ctrl-C to stop them.");
		try {
			this.stopRequested.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		System.out.println();
	}

	private static void awaitQuietly(CountDownLatch latch, Duration bound) {
		try {
			latch.await(bound.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private Map<String, Integer> setInitialStock(List<InventoryClient> clients) {
		Map<String, Integer> initialStock = new LinkedHashMap<>();
		for (int i = 0; i < this.options.skus(); i++) {
			String sku = "sku-" + (i + 1);
			initialStock.put(sku, clients.get(i % clients.size()).setStock(sku, this.options.initialStock()).stock());
		}
		return initialStock;
	}

	private static double seconds(long nanos) {
		return nanos / 1e9;
	}

	private static Path createRunDirectory() {
		try {
			return Files.createTempDirectory("zklock-demo-");
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot create a temporary directory for the demo", ex);
		}
	}

	private static void createDirectories(Path... directories) {
		try {
			for (Path directory : directories) {
				Files.createDirectories(directory);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot create the demo's directories", ex);
		}
	}

	private static void deleteRecursively(Path directory) {
		try (Stream<Path> paths = Files.walk(directory)) {
			for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
				Files.deleteIfExists(path);
			}
		}
		catch (IOException ex) {
			System.err.println("Could not delete " + directory + ": " + ex.getMessage());
		}
	}

}
