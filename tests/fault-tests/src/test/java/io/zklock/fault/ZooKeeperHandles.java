package io.zklock.fault;

import java.io.IOException;

import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;

/**
 * The constructor of a test's ZooKeeper handle, one that records or alters a client's calls, and
 * the Curator {@link ZookeeperFactory} that builds every handle of a client with it.
 */
@FunctionalInterface
interface ZooKeeperHandles {

	ZooKeeper newHandle(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly,
			ZKClientConfig config) throws IOException;

	/** A factory whose handles come from {@code handles}, with a default config where Curator gives none. */
	static ZookeeperFactory factory(ZooKeeperHandles handles) {
		return new ZookeeperFactory() {

			@Override
			public ZooKeeper newZooKeeper(String connectString, int sessionTimeout, Watcher watcher,
					boolean canBeReadOnly) throws IOException {
				return handles.newHandle(connectString, sessionTimeout, watcher, canBeReadOnly, new ZKClientConfig());
			}

			@Override
			public ZooKeeper newZooKeeper(String connectString, int sessionTimeout, Watcher watcher,
					boolean canBeReadOnly, ZKClientConfig config) throws IOException {
				return handles.newHandle(connectString, sessionTimeout, watcher, canBeReadOnly, config);
			}

		};
	}

}
