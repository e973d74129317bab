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
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.zklock.sample.audit.AuditLedger;
import io.zklock.sample.audit.AuditStatus;
import io.zklock.sample.audit.InventoryAudit;

/**
 * The load demo behind {@code ./demo.sh}: starts three instances of the sample application
 * sharing one inventory directory (the first hosting an embedded ZooKeeper server, the others
 * connected to it), sets the stock of a few SKUs, sends a few thousand concurrent
 * reservations round-robin over the instances, and prints what the stock shows: with zklock
 * no update is lost and nothing is oversold; with {@code --no-lock} both happen. It then shows the
 * leader-only inventory audit (one instance runs it at each tick, the others skip it; with
 * {@code --no-lock} every instance runs it) and, with zklock, hands its role to another instance
 * through the leadership endpoint. With
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

	/** The longest the demo waits for the next leader after a yield. */
	private static final Duration HANDOVER_WAIT = Duration.ofSeconds(10);

	/** How often the demo asks the instances who leads after a yield. */
	private static final Duration POLL = Duration.ofMillis(2);

	/** The longest the demo waits for the new leader's first audit runs. */
	private static final Duration AFTER_HANDOVER = Duration.ofSeconds(5);

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
			showLeaderOnlyJob(cluster, inventoryDirectory);
			if (this.options.keepRunning()) {
				keepRunning(cluster, runDirectory);
			}
		}
		System.out.println("Stopped all instances.");
	}

	/**
	 * Shows the leader-only audit: which instance leads and ran it at each tick while the others
	 * skipped it; with locking, then hands the role over (a yield through the leadership endpoint)
	 * and shows the next leader taking the audit on under a larger fencing token.
	 */
	private void showLeaderOnlyJob(AppCluster cluster, Path inventoryDirectory) {
		List<InventoryClient> clients = cluster.clients();
		AuditSummary before = AuditSummary.of(this.options.locking(), auditStatuses(clients),
				readLedger(inventoryDirectory));
		before.print(System.out);
		Optional<String> leader = before.leader();
		if (!this.options.locking() || leader.isEmpty()) {
			return;
		}
		InventoryClient leaderClient = clients.stream().filter((client) -> client.instance().equals(leader.get()))
			.findFirst()
			.orElseThrow();
		long oldToken = leaderClient.audit().fencingToken();
		System.out.printf("Handing the audit over: POST /actuator/leadership/%s on %s%n", InventoryAudit.ROLE,
				leader.get());
		long yieldedAt = System.nanoTime();
		leaderClient.yieldRole(InventoryAudit.ROLE);
		long returnedAt = System.nanoTime();
		Optional<InventoryClient> next = Optional.empty();
		long deadline = returnedAt + HANDOVER_WAIT.toNanos();
		while (next.isEmpty() && System.nanoTime() < deadline) {
			next = clients.stream().filter((client) -> client != leaderClient && client.audit().leader()).findFirst();
			if (next.isEmpty()) {
				pause(POLL);
			}
		}
		if (next.isEmpty()) {
			System.out.printf("  no other instance led within %d s%n", HANDOVER_WAIT.toSeconds());
			return;
		}
		long grantedSeenAt = System.nanoTime();
		long newToken = next.get().audit().fencingToken();
		System.out.printf(Locale.ROOT, "  the yield returned in %.0f ms (the audit stopped, then its lock node was deleted); "
				+ "%s leads %.0f ms later, term token %d > %d%n", (returnedAt - yieldedAt) / 1e6, next.get().instance(),
				(grantedSeenAt - returnedAt) / 1e6, newToken, oldToken);
		awaitQuietly(next.get(), AFTER_HANDOVER);
		AuditSummary.of(true, auditStatuses(clients), readLedger(inventoryDirectory)).print(System.out);
	}

	private static Map<String, AuditStatus> auditStatuses(List<InventoryClient> clients) {
		Map<String, AuditStatus> statuses = new LinkedHashMap<>();
		for (InventoryClient client : clients) {
			statuses.put(client.instance(), client.audit());
		}
		return statuses;
	}

	private static List<String> readLedger(Path inventoryDirectory) {
		try {
			Path ledger = inventoryDirectory.resolve(AuditLedger.FILE_NAME);
			return Files.exists(ledger) ? Files.readAllLines(ledger) : List.of();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read the audit ledger", ex);
		}
	}

	/** Lets the new leader's audit run a few ticks, so the ledger shows it. */
	private static void awaitQuietly(InventoryClient leader, Duration ticks) {
		long runs = leader.audit().runs();
		long deadline = System.nanoTime() + ticks.toNanos();
		while (leader.audit().runs() < runs + 3 && System.nanoTime() < deadline) {
			pause(Duration.ofMillis(50));
		}
	}

	/** Waits between two polls of the instances. */
	private static void pause(Duration pause) {
		try {
			Thread.sleep(pause.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", ex);
		}
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
