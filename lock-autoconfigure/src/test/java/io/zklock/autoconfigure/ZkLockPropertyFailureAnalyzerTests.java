package io.zklock.autoconfigure;

import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ZkLockPropertyFailureAnalyzer}.
 */
class ZkLockPropertyFailureAnalyzerTests {

	private final StandardEnvironment environment = new StandardEnvironment();

	@Test
	void shouldEchoTheValueAsWrittenAndWhereFromAnEnvironmentVariable() {
		this.environment.getPropertySources()
			.addFirst(new SystemEnvironmentPropertySource("test-systemEnvironment",
					Map.of("ZKLOCK_ZOOKEEPER_SESSIONTIMEOUT", "-1s")));
		FailureAnalysis analysis = analyze(
				new ZkLockPropertyChecks(this.environment).invalid("zklock.zookeeper.session-timeout",
						java.time.Duration.ofSeconds(-1), "it is negative; set a duration such as '60s'"));
		assertThat(analysis.getDescription())
			.startsWith("Invalid value '-1s' for configuration property 'zklock.zookeeper.session-timeout' "
					+ "(originating from '\"ZKLOCK_ZOOKEEPER_SESSIONTIMEOUT\" from property source "
					+ "\"test-systemEnvironment\"')")
			.endsWith(": it is negative; set a duration such as '60s'.")
			.doesNotContain("PT-1S");
		assertThat(analysis.getAction()).isEqualTo("Update 'zklock.zookeeper.session-timeout' in "
				+ "\"ZKLOCK_ZOOKEEPER_SESSIONTIMEOUT\" from property source \"test-systemEnvironment\".");
	}

	@Test
	void shouldEchoTheBoundValueWhenNoSourceHasTheProperty() {
		FailureAnalysis analysis = analyze(new InvalidConfigurationPropertyValueException("zklock.root-path", "locks",
				"it must start with '/', for example '/locks'"));
		assertThat(analysis.getDescription()).isEqualTo("Invalid value 'locks' for configuration property "
				+ "'zklock.root-path': it must start with '/', for example '/locks'.");
		assertThat(analysis.getAction()).isEqualTo("Update 'zklock.root-path'.");
	}

	@Test
	void shouldEchoALeadershipValueAsWritten() {
		this.environment.getPropertySources()
			.addFirst(new MapPropertySource("test", Map.of("zklock.leadership.handover-timeout", "-1s",
					"zklock.leadership.roles[billing//close].candidate", "true")));
		assertThat(analyze(new InvalidConfigurationPropertyValueException("zklock.leadership.handover-timeout",
				java.time.Duration.ofSeconds(-1), "it must be zero or more; set a duration such as '10s', the longest a "
						+ "handover waits for the leader's work to stop"))
			.getDescription()).isEqualTo("Invalid value '-1s' for configuration property "
					+ "'zklock.leadership.handover-timeout' (originating from '\"zklock.leadership.handover-timeout\" "
					+ "from property source \"test\"'): it must be zero or more; set a duration such as '10s', the "
					+ "longest a handover waits for the leader's work to stop.");
		assertThat(analyze(new InvalidConfigurationPropertyValueException("zklock.leadership.roles[billing//close]",
				"billing//close", "the role is not a valid lock path (<rule>)"))
			.getDescription()).isEqualTo("Invalid value 'billing//close' for configuration property "
					+ "'zklock.leadership.roles[billing//close]': the role is not a valid lock path (<rule>).");
	}

	@Test
	void shouldLeaveOtherPropertiesToSpringBoot() {
		this.environment.getPropertySources()
			.addFirst(new MapPropertySource("test", Map.of("spring.datasource.url", "nope")));
		assertThat(analyze(new InvalidConfigurationPropertyValueException("spring.datasource.url", "nope", "bad")))
			.isNull();
	}

	private FailureAnalysis analyze(Throwable failure) {
		return new ZkLockPropertyFailureAnalyzer(this.environment)
			.analyze(new IllegalStateException("wrapped", failure));
	}

}
