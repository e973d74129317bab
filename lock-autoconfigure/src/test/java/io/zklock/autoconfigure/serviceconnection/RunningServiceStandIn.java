package io.zklock.autoconfigure.serviceconnection;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.docker.compose.core.ConnectionPorts;
import org.springframework.boot.docker.compose.core.ImageReference;
import org.springframework.boot.docker.compose.core.RunningService;

/**
 * A Docker Compose service as Spring Boot's Docker Compose support reports it, without Docker:
 * its image, host, environment, labels and one published port.
 */
record RunningServiceStandIn(String name, String imageName, String host, int containerPort, int hostPort,
		Map<String, @Nullable String> env, Map<String, String> labels) implements RunningService {

	static RunningServiceStandIn zookeeper(String imageName, int hostPort) {
		return new RunningServiceStandIn("zookeeper", imageName, "127.0.0.1", 2181, hostPort, Map.of(), Map.of());
	}

	RunningServiceStandIn withEnv(Map<String, @Nullable String> env) {
		return new RunningServiceStandIn(this.name, this.imageName, this.host, this.containerPort, this.hostPort, env,
				this.labels);
	}

	RunningServiceStandIn withPublishedPort(int containerPort, int hostPort) {
		return new RunningServiceStandIn(this.name, this.imageName, this.host, containerPort, hostPort, this.env,
				this.labels);
	}

	RunningServiceStandIn withLabels(Map<String, String> labels) {
		return new RunningServiceStandIn(this.name, this.imageName, this.host, this.containerPort, this.hostPort,
				this.env, labels);
	}

	@Override
	public ImageReference image() {
		return ImageReference.of(this.imageName);
	}

	@Override
	public ConnectionPorts ports() {
		return new ConnectionPorts() {

			@Override
			public int get(int containerPort) {
				if (containerPort != RunningServiceStandIn.this.containerPort) {
					throw new IllegalStateException("No host port mapping found for container port " + containerPort);
				}
				return RunningServiceStandIn.this.hostPort;
			}

			@Override
			public List<Integer> getAll() {
				return List.of(RunningServiceStandIn.this.hostPort);
			}

			@Override
			public List<Integer> getAll(@Nullable String protocol) {
				return getAll();
			}

		};
	}

}
