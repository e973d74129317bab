package io.zklock.sample.demo;

import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample application after Spring's ahead-of-time processing, on the JVM: the jar that
 * the {@code aot} profile builds ({@code spring-boot:process-aot}, then repackaged) runs with
 * {@code -Dspring.aot.enabled=true} against its embedded ZooKeeper server, and a load of
 * concurrent reservations neither loses an update nor oversells. Run by
 * {@code mvn verify -Paot -pl sample-app -am} (failsafe), not by the ordinary build.
 */
class AotProcessedApplicationIT {

	private static final int REQUESTS = 600;

	private Path runDirectory;

	private AppInstance instance;

	@BeforeEach
	void createRunDirectory() throws IOException {
		this.runDirectory = Files.createTempDirectory("zklock-aot-");
	}

	@AfterEach
	void stopInstanceAndDeleteRunDirectory() throws IOException {
		if (this.instance != null) {
			this.instance.stop();
		}
		try (Stream<Path> paths = Files.walk(this.runDirectory)) {
			for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
				Files.deleteIfExists(path);
			}
		}
	}

	@Test
	@Timeout(240)
	void shouldStartAotProcessedAndNeitherLoseUpdatesNorOversell() throws IOException {
		Path jar = Path.of(System.getProperty("zklock.sample.jar", "target/zklock-sample-app.jar"));
		assertThat(jar).as("the jar built by the aot profile").isRegularFile();
		List<Integer> ports = FreePorts.pick(2);
		Path inventory = Files.createDirectories(this.runDirectory.resolve("inventory"));
		List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-Dspring.aot.enabled=true", "-Xmx256m", "-XX:TieredStopAtLevel=1", "-jar", jar.toAbsolutePath().toString(),
				"--server.address=127.0.0.1", "--server.port=" + ports.get(0),
				"--zklock.zookeeper.embedded.port=" + ports.get(1), "--sample.inventory.dir=" + inventory,
				"--sample.inventory.work-pause=1ms", "--spring.main.banner-mode=off");
		this.instance = AppInstance.start("aot-instance", ports.get(0), command, this.runDirectory);
		HttpClient http = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(5))
			.build();
		InventoryClient client = new InventoryClient(http, this.instance.baseUri(), this.instance.name());
		await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200)).until(() -> {
			this.instance.checkAlive();
			return client.isUp();
		});
		assertThat(Files.readString(this.instance.logFile())).as("the application log")
			.contains("Starting AOT-processed SampleApplication");

		Map<String, Integer> initialStock = new LinkedHashMap<>();
		for (String sku : List.of("aot-1", "aot-2")) {
			initialStock.put(sku, client.setStock(sku, 150).stock());
		}
		long startedAt = System.nanoTime();
		List<ReservationOutcome> outcomes = LoadGenerator.run(List.of(client), List.copyOf(initialStock.keySet()),
				REQUESTS, 16, 42);
		Duration elapsed = Duration.ofNanos(System.nanoTime() - startedAt);
		Map<String, Integer> finalStock = new LinkedHashMap<>();
		for (String sku : initialStock.keySet()) {
			finalStock.put(sku, client.stock(sku).orElseThrow().stock());
		}
		DemoSummary summary = DemoSummary.of(true, outcomes, initialStock, finalStock,
				client.stats().fencingViolations(), elapsed);
		assertThat(summary.failed()).as("reservations without an answer").isZero();
		assertThat(summary.requests()).isEqualTo(REQUESTS);
		assertThat(summary.refused()).as("reservations refused for lack of stock").isPositive();
		assertThat(summary.oversold()).as("units oversold").isZero();
		assertThat(summary.lostUpdates()).as("units lost").isZero();
		assertThat(client.stats().fencingViolations()).as("fencing violations").isZero();
		assertThat(summary.tokenOrder().passed()).as("fencing tokens replay the stock: %s", summary.tokenOrder().problem())
			.isTrue();
	}

}
