package io.zklock.autoconfigure.endpoint;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.zklock.internal.LockPaths;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests the {@code locks} endpoint and the {@code zklock} health over real HTTP, in an
 * application with every auto-configuration on the test classpath.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "server.address=127.0.0.1", "management.endpoints.web.exposure.include=health,locks",
				"management.endpoint.health.show-details=always", "spring.web.error.include-message=always",
				"spring.jmx.enabled=false", "spring.application.name=web-tests", "zklock.instance-id=web-tests:1" })
@Timeout(60)
@DirtiesContext // closes the context with its client before the server stops, instead of caching it
@Tag("slow")
class LocksEndpointWebTests {

	private static final TestingServer server = startServer();

	private final HttpClient http = HttpClient.newHttpClient();

	private final JsonMapper json = JsonMapper.builder().build();

	private final ExecutorService otherThread = Executors.newSingleThreadExecutor();

	@Autowired
	private ILockByCurator locks;

	@LocalServerPort
	private int port;

	@DynamicPropertySource
	static void zooKeeper(DynamicPropertyRegistry registry) {
		registry.add("zklock.zookeeper.connect-string", server::getConnectString);
	}

	@AfterEach
	void stopOtherThread() throws InterruptedException {
		this.otherThread.shutdownNow();
		assertThat(this.otherThread.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
	}

	@AfterAll
	static void stopServer() throws Exception {
		server.close();
	}

	@Test
	void shouldServeHeldLocksAndQueueAsJson() throws Exception {
		try (LockHandle lock = this.locks.acquire("inventory/sku-9", LockMode.EXCLUSIVE)) {
			Future<Optional<LockHandle>> waiter = this.otherThread
				.submit(() -> this.locks.tryAcquire("inventory/sku-9", Duration.ofSeconds(20)));
			await().atMost(Duration.ofSeconds(20))
				.until(() -> get("/actuator/locks/inventory/sku-9").path("nodes").size() == 2);

			JsonNode held = get("/actuator/locks");
			assertThat(held.path("rootPath").asString()).isEqualTo("/locks");
			assertThat(held.path("sessionId").asString()).startsWith("0x");
			JsonNode heldLock = held.path("locks").path(0);
			assertThat(heldLock.path("lockPath").asString()).isEqualTo("inventory/sku-9");
			assertThat(heldLock.path("mode").asString()).isEqualTo("EXCLUSIVE");
			assertThat(heldLock.path("fencingToken").asLong()).isEqualTo(lock.fencingToken());
			assertThat(heldLock.path("heldSince").asString()).isEqualTo(lock.acquiredAt().toString());
			assertThat(heldLock.path("holderThread").asString()).isEqualTo(Thread.currentThread().getName());

			JsonNode queue = get("/actuator/locks/inventory/sku-9");
			assertThat(queue.path("lockPath").asString()).isEqualTo("inventory/sku-9");
			assertThat(queue.path("nodes").path(0).path("holder").asBoolean()).isTrue();
			assertThat(queue.path("nodes").path(0).path("fencingToken").asLong()).isEqualTo(lock.fencingToken());
			assertThat(queue.path("nodes").path(1).path("holder").asBoolean()).isFalse();
			assertThat(queue.path("nodes").path(1).path("thisInstance").asBoolean()).isTrue();
			assertThat(queue.path("nodes").path(1).path("instanceId").asString()).isEqualTo("web-tests:1");
			assertThat(queue.path("nodes").path(1).path("createdBy").asString()).startsWith("host ")
				.endsWith(", application 'web-tests', instance 'web-tests:1'");
			assertThat(get("/actuator/locks/inventory").path("subPaths").get(0).asString())
				.isEqualTo("inventory/sku-9");

			lock.release();
			waiter.get(20, TimeUnit.SECONDS).orElseThrow().release();
		}
	}

	@Test
	void shouldTakeAnEncodedKeySegmentInTheUrlAndShowItDecoded() throws Exception {
		// @DistributedLock(path = "orders", key = "#id") with the id "a/b" locks "orders/a%2Fb"
		try (LockHandle lock = this.locks.acquire("orders/" + LockPaths.encodeSegment("a/b"), LockMode.EXCLUSIVE)) {
			JsonNode held = get("/actuator/locks").path("locks").path(0);
			assertThat(held.path("lockPath").asString()).isEqualTo("orders/a%2Fb");
			assertThat(held.path("displayPath").asString()).isEqualTo("orders/a/b");
			// the stored form, its '%' URL-encoded as any segment's would be
			JsonNode queue = get("/actuator/locks/orders/a%252Fb");
			assertThat(queue.path("lockPath").asString()).isEqualTo("orders/a%2Fb");
			assertThat(queue.path("displayPath").asString()).isEqualTo("orders/a/b");
			assertThat(queue.path("nodes").path(0).path("fencingToken").asLong()).isEqualTo(lock.fencingToken());
		}
	}

	@Test
	void shouldAnswerBadRequestForInvalidLockPath() throws Exception {
		// U+E000, private use: fine in a URL, refused by ZooKeeper in a path
		HttpResponse<String> response = send("/actuator/locks/orders/%EE%80%80");
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.body()).contains("is invalid");
	}

	@Test
	void shouldServeHealthUnderZklockKey() throws Exception {
		JsonNode health = get("/actuator/health/zklock");
		assertThat(health.path("status").asString()).isEqualTo("UP");
		assertThat(health.path("details").path("connectString").asString()).isEqualTo(server.getConnectString());
		assertThat(health.path("details").path("heldLocks").asInt()).isZero();
	}

	private JsonNode get(String path) throws Exception {
		HttpResponse<String> response = send(path);
		assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);
		return this.json.readTree(response.body());
	}

	private HttpResponse<String> send(String path) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(20))
			.build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	private static TestingServer startServer() {
		try {
			return new TestingServer(true);
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not start a ZooKeeper test server", ex);
		}
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

	}

}
