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
import java.util.stream.Stream;

/**
 * The load demo behind {@code ./demo.sh}: starts three instances of the sample application
 * sharing one inventory directory (the first hosting an embedded ZooKeeper server, the others
 * connected to it), sets the stock of a few SKUs, sends a few thousand concurrent
 * reservations round-robin over the instances, and prints what the stock shows: with zklock
 * no update is lost and nothing is oversold; with {@code --no-lock} both happen.
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

	private volatile boolean interrupted;

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
		// on Ctrl-C the instances stop under the running demo: report that, not what fails next
		Runtime.getRuntime().addShutdownHook(new Thread(() -> this.interrupted = true));
		boolean completed = false;
		try {
			runDemo(runDirectory.resolve("inventory"), runDirectory.resolve("logs"));
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
		}
	}

	private void runDemo(Path inventoryDirectory, Path logDirectory) {
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
		}
		System.out.println("Stopped all instances.");
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
