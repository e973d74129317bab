package io.zklock.boot34;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * An application with zklock's starter on Spring Boot 3.4, a line zklock does not support: it
 * fails to start with one failure analysis that names the version and the supported lines,
 * instead of the embedded server's complaint about its libraries (that auto-configuration's
 * {@code @ConditionalOnBooleanProperty} does not exist on 3.4, so Spring ignored it).
 */
@Timeout(60)
@ExtendWith(OutputCaptureExtension.class)
class Boot34StartupTests {

	@Test
	void shouldRefuseToStartNamingTheSupportedLines(CapturedOutput output) {
		assertThat(SpringBootVersion.getVersion()).startsWith("3.4.");
		SpringApplication application = new SpringApplication(Boot34Application.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatExceptionOfType(Exception.class).isThrownBy(
				() -> application.run("--zklock.zookeeper.connect-string=127.0.0.1:1", "--logging.level.root=INFO"));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("zklock supports Spring Boot 3.5.x and 4.x, and this application runs on Spring Boot "
					+ SpringBootVersion.getVersion() + ".")
			.contains("Move the application to Spring Boot 3.5.x or 4.x")
			.doesNotContain("metrics-core")
			.doesNotContain("Connecting to the ZooKeeper ensemble");
	}

	@SpringBootApplication
	static class Boot34Application {

	}

}
