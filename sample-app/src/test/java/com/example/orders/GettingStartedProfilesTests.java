package com.example.orders;

import java.io.IOException;

import org.junit.jupiter.api.Test;

import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The guide's in-process ZooKeeper server is on only in its {@code dev} profile: an instance started without its production profile must not run a ZooKeeper of its
 * own, which would exclude no one. Before, {@code application.yml} turned it on.
 */
class GettingStartedProfilesTests {

	@Test
	void shouldStartTheInProcessServerOnlyInTheDevProfile() throws IOException {
		assertThat(property("application.yml", "zklock.zookeeper.embedded.enabled")).isNull();
		assertThat(property("application-dev.yml", "zklock.zookeeper.embedded.enabled")).isEqualTo(true);
		assertThat(property("application-prod.yml", "zklock.zookeeper.embedded.enabled")).isEqualTo(false);
	}

	private static Object property(String file, String name) throws IOException {
		Object value = null;
		for (PropertySource<?> source : new YamlPropertySourceLoader().load(file,
				new ClassPathResource("com/example/orders/" + file))) {
			value = (value != null) ? value : source.getProperty(name);
		}
		return value;
	}

}
