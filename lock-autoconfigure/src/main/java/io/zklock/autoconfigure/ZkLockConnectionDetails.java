package io.zklock.autoconfigure;

/**
 * Where the ZooKeeper ensemble of zklock's client is. By default taken from
 * {@code zklock.zookeeper.connect-string}; the in-process server
 * ({@code zklock.zookeeper.embedded.enabled}) or a test can supply its own bean instead.
 */
@FunctionalInterface
public interface ZkLockConnectionDetails {

	/**
	 * The ensemble's address.
	 * @return comma-separated {@code host:port} pairs, for example
	 * {@code "zk1:2181,zk2:2181,zk3:2181"}
	 */
	String getConnectString();

}
