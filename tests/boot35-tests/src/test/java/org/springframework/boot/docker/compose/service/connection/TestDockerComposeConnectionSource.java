package org.springframework.boot.docker.compose.service.connection;

import org.springframework.boot.docker.compose.core.RunningService;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;

/**
 * Creates a {@link DockerComposeConnectionSource} for a running-service stand-in, as Spring
 * Boot's own test fixtures do for its factories (the constructor is package-private).
 */
public final class TestDockerComposeConnectionSource {

	private TestDockerComposeConnectionSource() {
	}

	public static DockerComposeConnectionSource of(RunningService service) {
		Environment environment = new StandardEnvironment();
		return new DockerComposeConnectionSource(service, environment);
	}

}
