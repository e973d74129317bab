package io.zklock.health.internal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ZkLockConnectionCheck#withoutCredentials(String)}; the indicator itself is
 * tested against a real server in
 * {@link io.zklock.autoconfigure.health.ZkLockHealthContributorAutoConfigurationTests}.
 */
class ZkLockConnectionCheckTests {

	@Test
	void shouldKeepConnectStringWithoutCredentials() {
		assertThat(ZkLockConnectionCheck.withoutCredentials("zk1:2181,zk2:2181/app"))
			.isEqualTo("zk1:2181,zk2:2181/app");
	}

	@Test
	void shouldStripCredentialsOfEveryHost() {
		assertThat(ZkLockConnectionCheck.withoutCredentials("user:secret@zk1:2181,other:pw@zk2:2181/app"))
			.isEqualTo("zk1:2181,zk2:2181/app");
		assertThat(ZkLockConnectionCheck.withoutCredentials("digest@zk1:2181")).isEqualTo("zk1:2181");
	}

	@Test
	void shouldAnswerEmptyForNoConnectString() {
		assertThat(ZkLockConnectionCheck.withoutCredentials(null)).isEmpty();
	}

}
