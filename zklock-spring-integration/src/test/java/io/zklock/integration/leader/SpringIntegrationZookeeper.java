package io.zklock.integration.leader;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.integration.support.locks.LockRegistry;
import org.springframework.integration.zookeeper.lock.ZookeeperLockRegistry;

/**
 * Spring Integration's own registry, in a class of its own: loaded only by the negative
 * control, so runs without {@code spring-integration-zookeeper} (the Boot 3.5 line) never touch it.
 */
final class SpringIntegrationZookeeper {

	private SpringIntegrationZookeeper() {
	}

	static LockRegistry<?> registry(CuratorFramework client) {
		return new ZookeeperLockRegistry(client, "/si-locks");
	}

}
