package io.zklock.lock.internal;

import io.zklock.internal.LockPaths;
import org.apache.curator.framework.CuratorFramework;

/**
 * The lock root of one client, such as {@code /locks} inside the namespace {@code zklock}:
 * resolves lock paths to the ZooKeeper paths of their lock nodes' parents. Internal: used by
 * {@code io.zklock.lock.LockEngine} and the queue inspector. Immutable and thread-safe.
 */
public final class LockRoot {

	private final String rootPath;

	private final boolean namespaced;

	/**
	 * Creates the lock root of a client.
	 * @param client the client; its namespace, if any, contains the lock root
	 * @param rootPath the lock root, such as {@code "/locks"}
	 * @throws IllegalArgumentException if the lock root is not a valid ZooKeeper path
	 */
	public LockRoot(CuratorFramework client, String rootPath) {
		if (client == null) {
			throw new IllegalArgumentException("'client' must not be null");
		}
		this.namespaced = LockPaths.isNamespaced(client);
		this.rootPath = LockPaths.validateRoot(rootPath, this.namespaced);
	}

	/**
	 * The lock root.
	 * @return for example {@code "/locks"}
	 */
	public String path() {
		return this.rootPath;
	}

	/**
	 * Checks a lock path.
	 * @param lockPath the lock path, for example {@code "/orders/42"}
	 * @return the lock path relative to the root, without a leading {@code '/'}
	 * @throws IllegalArgumentException naming the bad value, the rule it breaks and the root
	 */
	public String relative(String lockPath) {
		return LockPaths.normalize(lockPath, this.rootPath);
	}

	/**
	 * The ZooKeeper path, inside the namespace, of a checked lock path's lock nodes.
	 * @param relative a lock path from {@link #relative(String)}
	 * @return for example {@code "/locks/orders/42"}
	 * @throws IllegalArgumentException if the path falls under ZooKeeper's reserved
	 * {@code /zookeeper} subtree
	 */
	public String zooKeeperPath(String relative) {
		return LockPaths.toZooKeeperPath(relative, this.rootPath, this.namespaced);
	}

	@Override
	public String toString() {
		return this.rootPath;
	}

}
