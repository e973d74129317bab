package io.zklock.boot35;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.health.ZkLockBoot3HealthIndicator;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.test.EmbeddedZooKeeper;
import io.zklock.test.TestZooKeeper;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code @DistributedLock} application on Spring Boot 3.5 with the starter, Boot 3.5's web
 * and actuator starters, no AspectJ: the annotation applies, and the {@code zklock} health,
 * the meters and the {@code locks} endpoint answer over HTTP.
 */
@EmbeddedZooKeeper
@SpringBootTest(classes = Boot35Application.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "server.address=127.0.0.1", "spring.main.banner-mode=off",
				"management.endpoints.web.exposure.include=health,locks,metrics",
				"management.endpoint.health.show-details=always" })
@Timeout(60)
class Boot35ApplicationTests {

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final ObjectMapper json = new ObjectMapper();

	@Autowired
	private ApplicationContext context;

	@Autowired
	private Inventory inventory;

	@Autowired
	private ILockByCurator locks;

	@Autowired
	private TestZooKeeper zookeeper;

	@LocalServerPort
	private int port;

	@Test
	void shouldApplyTheAnnotationWithoutAspectJOnBoot35() {
		assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
		assertThat(AopUtils.isAopProxy(this.inventory)).isTrue();
		assertThat(this.context.getClassLoader().getResource("org/aspectj/weaver/Advice.class")).isNull();
		assertThat(this.context.getClassLoader()
			.getResource("org/springframework/boot/health/contributor/HealthIndicator.class")).isNull();
		this.inventory.setStock("app-1", 3);
		assertThat(this.inventory.reserve("app-1", 2)).isTrue();
		assertThat(this.inventory.reserve("app-1", 2)).isFalse();
		assertThat(this.inventory.stock("app-1")).isEqualTo(1);
	}

	@Test
	void shouldServeZklockHealthFromTheBoot35Indicator() throws Exception {
		// both health auto-configurations are listed; only the Boot 3.5 one applies here
		assertThat(this.context.getBean("zklockHealthIndicator")).isInstanceOf(ZkLockBoot3HealthIndicator.class);
		JsonNode health = get("/actuator/health/zklock");
		assertThat(health.path("status").asText()).isEqualTo("UP");
		assertThat(health.path("details").path("connectString").asText()).isEqualTo(this.zookeeper.connectString());
		assertThat(health.path("details").path("namespace").asText()).isEqualTo(this.zookeeper.namespace());
		assertThat(get("/actuator/health").path("components").path("zklock").path("status").asText())
			.isEqualTo("UP");
	}

	@Test
	void shouldServeHeldLocksAndQueueFromTheLocksEndpoint() throws Exception {
		try (LockHandle lock = this.locks.acquire("inventory/endpoint", LockMode.EXCLUSIVE)) {
			JsonNode held = get("/actuator/locks");
			assertThat(held.path("rootPath").asText()).isEqualTo("/locks");
			assertThat(held.path("locks").path(0).path("lockPath").asText()).isEqualTo("inventory/endpoint");
			assertThat(held.path("locks").path(0).path("fencingToken").asLong()).isEqualTo(lock.fencingToken());
			JsonNode queue = get("/actuator/locks/inventory/endpoint");
			assertThat(queue.path("nodes").path(0).path("holder").asBoolean()).isTrue();
			assertThat(queue.path("nodes").path(0).path("thisInstance").asBoolean()).isTrue();
		}
		HttpResponse<String> invalid = send("/actuator/locks/orders/%EE%80%80");
		assertThat(invalid.statusCode()).isEqualTo(400);
	}

	@Test
	void shouldServeLockMeters() throws Exception {
		this.inventory.setStock("metered", 5);
		assertThat(this.inventory.reserve("metered", 1)).isTrue();
		JsonNode acquire = get("/actuator/metrics/zklock.acquire?tag=lock:inventory&tag=outcome:acquired");
		assertThat(acquire.path("measurements").path(0).path("value").asDouble()).isGreaterThanOrEqualTo(2);
		assertThat(get("/actuator/metrics/zklock.locks.held").path("measurements").path(0).path("value").asDouble())
			.isZero();
		assertThat(get("/actuator/metrics/zklock.held").path("name").asText()).isEqualTo("zklock.held");
	}

	private JsonNode get(String path) throws Exception {
		HttpResponse<String> response = send(path);
		assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);
		return this.json.readTree(response.body());
	}

	private HttpResponse<String> send(String path) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(20))
			.GET()
			.build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

}
