package io.zklock.autoconfigure;

import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;

/**
 * Where the ZooKeeper ensemble of zklock's client is: Spring Boot {@link ConnectionDetails},
 * so that a test or a platform integration can point zklock at a ZooKeeper it started by
 * defining a bean of this type. By default taken from {@code zklock.zookeeper.connect-string};
 * the in-process server ({@code zklock.zookeeper.embedded.enabled}) supplies its own. Not used
 * when the application defines its own {@link org.apache.curator.framework.CuratorFramework}.
 */
@FunctionalInterface
public interface ZkLockConnectionDetails extends ConnectionDetails {

	/**
	 * The ensemble's address.
	 * @return comma-separated {@code host:port} pairs, optionally followed by a chroot path,
	 * for example {@code "zk1:2181,zk2:2181,zk3:2181"}
	 */
	String getConnectString();

}
