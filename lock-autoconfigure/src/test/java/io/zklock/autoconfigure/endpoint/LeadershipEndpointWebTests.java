package io.zklock.autoconfigure.endpoint;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.zklock.leadership.LeaderElection;
import io.zklock.leadership.Term;

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

/**
 * Tests the {@code leadership} endpoint and the {@code leadership} health over real HTTP, in an
 * application with every auto-configuration on the test classpath and a role named in its
 * properties only, its yield allowed ({@code management.endpoint.leadership.access=unrestricted}).
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "server.address=127.0.0.1",
				"management.endpoints.web.exposure.include=health,leadership",
				"management.endpoint.health.show-details=always", "management.endpoint.leadership.access=unrestricted",
				"spring.jmx.enabled=false", "spring.application.name=web-tests", "zklock.instance-id=web-tests:1",
				"zklock.leadership.roles.billing-close.candidate=true" })
@Tag("slow")
@Timeout(60)
@DirtiesContext // closes the context with its client before the server stops, instead of caching it
class LeadershipEndpointWebTests {

	private static final TestingServer server = startServer();

	private final HttpClient http = HttpClient.newHttpClient();

	private final JsonMapper json = JsonMapper.builder().build();

	@Autowired
	private LeaderElection election;

	@LocalServerPort
	private int port;

	@DynamicPropertySource
	static void zooKeeper(DynamicPropertyRegistry registry) {
		registry.add("zklock.zookeeper.connect-string", server::getConnectString);
	}

	@AfterAll
	static void stopServer() throws Exception {
		server.close();
	}

	@Test
	void shouldServeTheRolesHealthAndYieldAsJson() throws Exception {
		Term term = this.election.candidacy("billing-close").orElseThrow().awaitTerm(Duration.ofSeconds(20)).orElseThrow();

		JsonNode roles = get("/actuator/leadership");
		assertThat(roles.path("rootPath").asString()).isEqualTo("/leaders");
		JsonNode role = roles.path("roles").path("billing-close");
		assertThat(role.path("state").asString()).isEqualTo("LEADER");
		assertThat(role.path("term").path("fencingToken").asLong()).isEqualTo(term.fencingToken());
		assertThat(role.path("term").path("since").asString()).isEqualTo(term.since().toString());
		assertThat(role.path("currentLeader").path("instance").asString()).isEqualTo("web-tests:1");
		assertThat(role.path("currentLeader").path("description").asString())
			.endsWith("application 'web-tests', instance 'web-tests:1'");
		assertThat(role.path("candidates").size()).isEqualTo(1);
		assertThat(get("/actuator/leadership/billing-close").path("state").asString()).isEqualTo("LEADER");

		JsonNode health = get("/actuator/health/leadership");
		assertThat(health.path("status").asString()).isEqualTo("UP");
		assertThat(health.path("components").path("billing-close").path("details").path("state").asString())
			.isEqualTo("LEADER");

		HttpResponse<String> yielded = this.http.send(HttpRequest.newBuilder(uri("/actuator/leadership/billing-close"))
			.timeout(Duration.ofSeconds(20))
			.POST(HttpRequest.BodyPublishers.noBody())
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(yielded.statusCode()).as(yielded.body()).isEqualTo(200);
		JsonNode yield = this.json.readTree(yielded.body());
		assertThat(yield.path("yielded").asBoolean()).isTrue();
		assertThat(yield.path("fencingToken").asLong()).isEqualTo(term.fencingToken());
		// the only candidate: granted again, with a new term
		Term next = this.election.candidacy("billing-close").orElseThrow().awaitTerm(Duration.ofSeconds(20)).orElseThrow();
		assertThat(next.fencingToken()).isGreaterThan(term.fencingToken());

		assertThat(send("/actuator/leadership/billing/../close").statusCode()).isEqualTo(400);
	}

	private JsonNode get(String path) throws Exception {
		HttpResponse<String> response = send(path);
		assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);
		return this.json.readTree(response.body());
	}

	private HttpResponse<String> send(String path) throws Exception {
		return this.http.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(20)).GET().build(),
				HttpResponse.BodyHandlers.ofString());
	}

	private URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.port + path);
	}

	private static TestingServer startServer() {
		try {
			return new TestingServer(true);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

	}

}
