package io.zklock.autoconfigure.serviceconnection;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ZooKeeperImageEnvironment}: the client port of a container of the official
 * {@code zookeeper} image, from its environment.
 */
class ZooKeeperImageEnvironmentTests {

	@Test
	void shouldUseTheImagesClientPortWhenTheEnvironmentNamesNone() {
		assertThat(new ZooKeeperImageEnvironment(Map.of()).getClientPort()).isEqualTo(2181);
	}

	@Test
	void shouldTakeTheClientPortOfThisServerFromZooServers() {
		Map<String, String> env = Map.of("ZOO_MY_ID", "2", "ZOO_SERVERS",
				"server.1=zoo1:2888:3888;2181 server.2=zoo2:2888:3888;2182 server.3=zoo3:2888:3888;2183");
		assertThat(new ZooKeeperImageEnvironment(env).getClientPort()).isEqualTo(2182);
	}

	@Test
	void shouldTakeServerOneWithoutZooMyId() {
		Map<String, String> env = Map.of("ZOO_SERVERS", "server.1=0.0.0.0:2888:3888;0.0.0.0:2191");
		assertThat(new ZooKeeperImageEnvironment(env).getClientPort()).isEqualTo(2191);
	}

	@Test
	void shouldTakeTheClientPortFromZooCfgExtra() {
		Map<String, String> env = Map.of("ZOO_CFG_EXTRA", "metricsProvider.httpPort=7000 clientPort=2190");
		assertThat(new ZooKeeperImageEnvironment(env).getClientPort()).isEqualTo(2190);
	}

	@Test
	void shouldKeepTheDefaultForAServerEntryWithoutClientPortOrABadPort() {
		assertThat(new ZooKeeperImageEnvironment(Map.of("ZOO_SERVERS", "server.1=zoo1:2888:3888")).getClientPort())
			.isEqualTo(2181);
		assertThat(new ZooKeeperImageEnvironment(Map.of("ZOO_CFG_EXTRA", "clientPort=x")).getClientPort())
			.isEqualTo(2181);
	}

}
