package io.zklock.lock.spi;

import io.zklock.lock.LockEngine;
import org.apache.curator.framework.CuratorFramework;

/**
 * zklock-core's {@link LockEngine.Provider}, registered in
 * {@code META-INF/services/io.zklock.lock.LockEngine$Provider}: makes a {@link LockCoordinator}
 * for the constructors that take a Curator client, such as
 * {@code new ExclusiveLockByCurator(client, "/locks")}. Instantiated by
 * {@link java.util.ServiceLoader}; not meant to be called directly. Stateless and thread-safe.
 */
public final class LockCoordinatorProvider implements LockEngine.Provider {

	/**
	 * Creates the provider; {@link java.util.ServiceLoader} calls this.
	 */
	public LockCoordinatorProvider() {
	}

	/**
	 * Creates a coordinator whose lock nodes carry no data.
	 * @param client a started Curator client; its namespace, if any, contains the lock root
	 * @param rootPath the lock root, such as {@code "/locks"}
	 * @return a new {@link LockCoordinator}
	 * @throws IllegalArgumentException if the client is {@code null} or the lock root is not
	 * a valid ZooKeeper path
	 */
	@Override
	public LockEngine create(CuratorFramework client, String rootPath) {
		return new LockCoordinator(client, rootPath);
	}

}
