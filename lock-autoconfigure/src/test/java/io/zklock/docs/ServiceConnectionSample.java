package io.zklock.docs;

import org.testcontainers.containers.GenericContainer;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;

/**
 * The {@code @ServiceConnection} sample of docs/configuration.md, compiled here; it needs a Docker engine to
 * run, which this repository's build has not: {@code ZooKeeperServiceConnectionTests} runs the
 * same path through Spring Boot with a container stand-in that starts a real server in the JVM.
 * Not a test class (its name does not end in Tests).
 */
// tag::service-connection[]
@SpringBootTest
class OrderServiceContainerTests {

	@ServiceConnection   // zklock connects to it; no zklock.zookeeper.connect-string needed
	static GenericContainer<?> zookeeper = new GenericContainer<>("zookeeper:3.9").withExposedPorts(2181);

}
// end::service-connection[]
