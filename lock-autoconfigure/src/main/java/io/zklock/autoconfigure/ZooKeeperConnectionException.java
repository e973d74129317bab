package io.zklock.autoconfigure;

import org.jspecify.annotations.Nullable;

/**
 * Thrown at start-up when zklock's Curator client could not reach the ZooKeeper ensemble
 * within {@code zklock.zookeeper.block-until-connected}.
 */
public class ZooKeeperConnectionException extends ZkLockStartupException {

	/** The ensemble address that was tried. */
	private final String connectString;

	/**
	 * Creates the exception.
	 * @param connectString the ensemble address that was tried
	 * @param description what happened
	 * @param action which property to change
	 * @param cause the underlying failure, or {@code null}
	 */
	public ZooKeeperConnectionException(String connectString, String description, String action, @Nullable Throwable cause) {
		super(description, action, cause);
		this.connectString = connectString;
	}

	/**
	 * The ensemble address that could not be reached.
	 * @return the connect string
	 */
	public String getConnectString() {
		return this.connectString;
	}

}
