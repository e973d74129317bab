package io.zklock.autoconfigure;

import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link UnknownPropertiesCheck}: a {@code zklock.*} property zklock does not have fails
 * start-up naming it and the nearest known one. Before, it was ignored:
 * {@code zklock.zookeper.connect-string} left zklock on {@code localhost:2181}.
 */
@Timeout(60)
class UnknownPropertiesCheckTests extends ZkServerTest {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkLockAutoConfiguration.class));

	@Test
	void shouldFailNamingAMistypedPropertyAndTheNearestKnownOneBeforeConnecting() {
		this.contextRunner.withPropertyValues("zklock.zookeper.connect-string=" + server.getConnectString())
			.run((context) -> {
				FailureAnalysis analysis = analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).startsWith("zklock has no property "
						+ "'zklock.zookeper.connect-string' (originating from '")
					.endsWith(", so its value would be ignored: did you mean zklock.zookeeper.connect-string?");
				assertThat(analysis.getAction()).startsWith("Rename it to zklock.zookeeper.connect-string in ")
					.endsWith(", or remove it.");
				assertThat(context.getStartupFailure()).as("failed before the client connected")
					.isInstanceOf(ZkLockStartupException.class);
			});
	}

	@Test
	void shouldSuggestAcrossTheWaysANameIsWritten() {
		this.contextRunner
			.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString(),
					"zklock.zookeeper.sessionTimout=20s")
			.run((context) -> assertThat(analyze(context.getStartupFailure()).getDescription())
				.contains("did you mean zklock.zookeeper.session-timeout?"));
		this.contextRunner
			.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString(),
					"zklock.leak-detection.treshold=10m")
			.run((context) -> assertThat(analyze(context.getStartupFailure()).getDescription())
				.contains("did you mean zklock.leak-detection.threshold?"));
	}

	@Test
	void shouldListTheGroupsPropertiesWhenNoneIsNear() {
		this.contextRunner
			.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString(),
					"zklock.zookeeper.timeout=5s")
			.run((context) -> assertThat(analyze(context.getStartupFailure()).getDescription())
				.endsWith("so its value would be ignored: the properties under zklock.zookeeper are "
						+ "block-until-connected, connect-string, connection-state-error-policy, connection-timeout, "
						+ "namespace, session-timeout, auth.*, embedded.*, retry.*, ssl.*."));
	}

	@Test
	void shouldNameEveryUnknownPropertyInOneFailure() {
		this.contextRunner
			.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString(), "zklock.rootpth=/x",
					"zklock.zookeeper.retry.max-retry=3")
			.run((context) -> {
				FailureAnalysis analysis = analyze(context.getStartupFailure());
				assertThat(analysis.getDescription())
					.startsWith("zklock has no properties by these names, so their values would be ignored:\n")
					.contains("\n- 'zklock.rootpth' (originating from '")
					.contains("did you mean zklock.root-path?")
					.contains("\n- 'zklock.zookeeper.retry.max-retry' (originating from '")
					.contains("did you mean zklock.zookeeper.retry.max-retries?");
				assertThat(analysis.getAction()).startsWith("Rename each to the property you meant, or remove it");
			});
	}

	@Test
	void shouldAcceptEveryPropertyInAnyFormAndThoseOfZkLocksOtherArtifacts() {
		this.contextRunner
			.withPropertyValues("zklock.zookeeper.connectString=" + server.getConnectString(),
					"zklock.zookeeper.session_timeout=20s", "zklock.root-path=/locks", "zklock.instance-id=a",
					"zklock.leak-detection.record-sites=true", "zklock.local-handoff.max-time=20ms",
					"zklock.zookeeper.ssl.key-store.type=PKCS12", "zklock.zookeeper.retry.max-retries=3",
					"zklock.integration.lock-registry.prefix=registry", "zklock.integration.future-setting=x")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void shouldAcceptThePropertiesOfEveryRoleUnderAnyName() {
		this.contextRunner
			.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString(),
					"zklock.leadership.roles.billing-close.candidate=false",
					"zklock.leadership.roles[billing/close].candidate=false", "zklock.leadership.roles.reports.candidate=false",
					"zklock.leadership.roles.reports.leader-scoped-beans[0]=zkLockEngine",
					"zklock.leadership.root-path=/leaders", "zklock.leadership.handover-timeout=5s")
			.withInitializer((context) -> environmentVariables(context.getEnvironment(),
					Map.of("ZKLOCK_LEADERSHIP_ROLES_NIGHTLY_CANDIDATE", "false",
							"ZKLOCK_LEADERSHIP_ROLES_NIGHTLY_LEADER_SCOPED_BEANS", "zkLockEngine")))
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void shouldSuggestTheRolePropertyMeantUnderItsOwnRole() {
		this.contextRunner
			.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString(),
					"zklock.leadership.roles.billing-close.candiate=true")
			.run((context) -> assertThat(analyze(context.getStartupFailure()).getDescription())
				.endsWith("did you mean zklock.leadership.roles.billing-close.candidate?"));
		this.contextRunner
			.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString(),
					"zklock.leadership.roles.billing-close.beans=invoiceListener")
			.run((context) -> assertThat(analyze(context.getStartupFailure()).getDescription())
				.endsWith("the properties under zklock.leadership.roles are <name>.candidate, "
						+ "<name>.leader-scoped-beans."));
	}

	@Test
	void shouldNameAKeyAsItIsWritten() {
		this.contextRunner
			.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString(),
					"zklock.zookeeper.sessionTimout=20s")
			.run((context) -> assertThat(analyze(context.getStartupFailure()).getDescription())
				.startsWith("zklock has no property 'zklock.zookeeper.sessionTimout' (originating from '"));
	}

	@Test
	void shouldAcceptBothEnvironmentVariableFormsAndLeaveOtherVariablesAndSystemPropertiesAlone() {
		this.contextRunner.withSystemProperties("zklock.soak.duration=1m")
			.withInitializer((context) -> environmentVariables(context.getEnvironment(),
					Map.of("ZKLOCK_ZOOKEEPER_CONNECT_STRING", server.getConnectString(), "ZKLOCK_ZOOKEEPER_SESSIONTIMEOUT",
							"20s", "ZKLOCK_HOME", "/opt/zklock", "ZKLOCK_VERSION", "1.0",
							"ZKLOCK_INTEGRATION_LOCKREGISTRY_PREFIX", "registry")))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(ZkLockProperties.class).getZookeeper().getConnectString())
					.as("the legacy form binds, so it must not be flagged")
					.isEqualTo(server.getConnectString());
			});
	}

	@Test
	void shouldFailOnAnEnvironmentVariableNearAProperty() {
		this.contextRunner.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString())
			.withInitializer((context) -> environmentVariables(context.getEnvironment(),
					Map.of("ZKLOCK_ZOOKEPER_CONNECTSTRING", "prod-zk:2181")))
			.run((context) -> {
				FailureAnalysis analysis = analyze(context.getStartupFailure());
				assertThat(analysis.getDescription())
					.startsWith("zklock has no property 'ZKLOCK_ZOOKEPER_CONNECTSTRING' (originating from '")
					.endsWith(", so its value would be ignored: did you mean ZKLOCK_ZOOKEEPER_CONNECTSTRING "
							+ "(zklock.zookeeper.connect-string)?");
				assertThat(analysis.getAction()).startsWith("Rename it to ZKLOCK_ZOOKEEPER_CONNECTSTRING in ");
			});
	}

	@Test
	void shouldFailOnASystemPropertyNearAProperty() {
		this.contextRunner.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString())
			.withSystemProperties("zklock.zookeper.connect-string=prod-zk:2181")
			.run((context) -> assertThat(analyze(context.getStartupFailure()).getDescription())
				.startsWith("zklock has no property 'zklock.zookeper.connect-string'")
				.endsWith("did you mean zklock.zookeeper.connect-string?"));
	}

	@Test
	void shouldKnowEveryPropertyOfTheGeneratedMetadataAndNoOther() throws Exception {
		String metadata = null;
		for (URL url : Collections.list(getClass().getClassLoader()
			.getResources("META-INF/spring-configuration-metadata.json"))) {
			try (InputStream in = url.openStream()) {
				String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
				if (json.contains("\"zklock.zookeeper.connect-string\"")) {
					metadata = json;
				}
			}
		}
		assertThat(metadata).as("zklock's generated configuration metadata").isNotNull();
		int hints = metadata.indexOf("\"hints\"");
		String properties = metadata.substring(metadata.indexOf("\"properties\""), (hints > 0) ? hints : metadata.length());
		Matcher names = Pattern.compile("\"name\"\\s*:\\s*\"(zklock\\.[^\"]+)\"").matcher(properties);
		Set<String> documented = new TreeSet<>();
		while (names.find()) {
			documented.add(names.group(1));
		}
		Set<String> known = new TreeSet<>();
		ZkLockPropertyNames.of().properties().forEach((name) -> known.add(name.toString()));
		assertThat(known).isEqualTo(documented);
	}

	private static void environmentVariables(ConfigurableEnvironment environment, Map<String, Object> variables) {
		environment.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new SystemEnvironmentPropertySource(
					StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
	}

	private static FailureAnalysis analyze(Throwable failure) {
		assertThat(failure).as("start-up failure").isNotNull();
		return new ZkLockFailureAnalyzer().analyze(failure);
	}

}
