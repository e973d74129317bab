package io.zklock.autoconfigure;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.SpringBootVersion;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link BootLineCheck}: the versions it accepts, and what an unsupported one reads.
 * An application on Boot 3.4 itself is started by {@code tests/boot34-tests}.
 */
class BootLineCheckTests {

	@Test
	void shouldAcceptBoot35AndEvery4xVersion() {
		for (String version : new String[] { "3.5.0", "3.5.8", "3.5.16", "3.5.0-M1", "3.5.0-SNAPSHOT", "4.0.0", "4.0.7",
				"4.1.1", "4.1.2", "4.2.0-RC1", "4.9.0" }) {
			assertThat(BootLineCheck.isSupported(version, true)).as(version).isTrue();
		}
	}

	@Test
	void shouldRefuseOtherLines() {
		for (String version : new String[] { "3.4.13", "3.4.0", "3.3.5", "3.0.0", "2.7.18", "5.0.0", "5.0.0-M1" }) {
			assertThat(BootLineCheck.isSupported(version, true)).as(version).isFalse();
		}
	}

	@Test
	void shouldDecideAnUnknownVersionByBoot35sConditions() {
		assertThat(BootLineCheck.isSupported(null, true)).isTrue();
		assertThat(BootLineCheck.isSupported(null, false)).isFalse();
		assertThat(BootLineCheck.isSupported("unknown", false)).isFalse();
		assertThat(BootLineCheck.isSupported("", true)).isTrue();
	}

	@Test
	void shouldNameTheVersionFoundAndTheSupportedLines() {
		ZkLockStartupException failure = BootLineCheck.unsupported("3.4.13");
		assertThat(failure.getDescription()).isEqualTo("zklock supports Spring Boot 3.5.x and 4.x, and this application "
				+ "runs on Spring Boot 3.4.13. On another line its auto-configurations cannot be applied as written: "
				+ "Spring ignores the conditions that line lacks, so parts of zklock would switch on unasked and fail "
				+ "for reasons that have nothing to do with the cause.");
		assertThat(failure.getAction()).isEqualTo("Move the application to Spring Boot 3.5.x or 4.x (its "
				+ "spring-boot-starter-parent or spring-boot-dependencies version), or use zklock-core, which needs no "
				+ "Spring Boot, without zklock-spring-boot and its starters.");
		assertThat(BootLineCheck.unsupported(null).getDescription())
			.contains("this application runs on a Spring Boot version older than 3.5 (it has no "
					+ "@ConditionalOnBooleanProperty).");
	}

	@Test
	void shouldPassOnTheLineTheseTestsRunOn() {
		assertThat(BootLineCheck.isSupported(SpringBootVersion.getVersion(), true)).isTrue();
		new BootLineCheck().postProcessBeanFactory(new DefaultListableBeanFactory());
	}

}
