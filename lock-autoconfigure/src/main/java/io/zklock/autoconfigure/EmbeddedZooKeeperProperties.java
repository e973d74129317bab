package io.zklock.autoconfigure;

/**
 * In-process ZooKeeper server, for development and demos, {@code zklock.zookeeper.embedded.*}.
 */
public class EmbeddedZooKeeperProperties {

	/**
	 * Whether to start an in-process ZooKeeper server and connect to it instead of
	 * connect-string. Locks then exclude only clients of this one server.
	 */
	private boolean enabled;

	/**
	 * Client port of the in-process server; 0 picks a free port.
	 */
	private int port;

	/**
	 * The value of {@code zklock.zookeeper.embedded.enabled}.
	 * @return the value
	 */
	public boolean isEnabled() {
		return this.enabled;
	}

	/**
	 * Sets {@code zklock.zookeeper.embedded.enabled}.
	 * @param enabled the value
	 */
	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	/**
	 * The value of {@code zklock.zookeeper.embedded.port}.
	 * @return the value
	 */
	public int getPort() {
		return this.port;
	}

	/**
	 * Sets {@code zklock.zookeeper.embedded.port}.
	 * @param port the value
	 */
	public void setPort(int port) {
		this.port = port;
	}

}
