package io.zklock.integration.leader;

import java.util.OptionalLong;

import io.zklock.integration.ZkLockRegistry;
import io.zklock.lock.ExclusiveLockByCurator;
import org.apache.curator.framework.CuratorFramework;

import org.springframework.integration.support.locks.LockRegistry;

/** The registry a leader initiator runs on: zklock's, or Spring Integration's own (the negative control). */
enum RegistryKind {

	/** {@link ZkLockRegistry} over zklock's engine. */
	ZKLOCK {
		@Override
		LockRegistry<?> create(CuratorFramework client) {
			return new ZkLockRegistry(new ExclusiveLockByCurator(client, "/locks"));
		}

		@Override
		OptionalLong token(LockRegistry<?> registry, String role) {
			return ((ZkLockRegistry) registry).fencingToken(role);
		}
	},

	/** Spring Integration's {@code ZookeeperLockRegistry} (Curator's {@code InterProcessMutex}). */
	SPRING_INTEGRATION {
		@Override
		LockRegistry<?> create(CuratorFramework client) {
			return SpringIntegrationZookeeper.registry(client);
		}

		@Override
		OptionalLong token(LockRegistry<?> registry, String role) {
			return OptionalLong.empty();
		}
	};

	abstract LockRegistry<?> create(CuratorFramework client);

	/** The fencing token of this process's hold of the role's lock, if the registry has tokens. */
	abstract OptionalLong token(LockRegistry<?> registry, String role);

}
