package io.zklock.leadership;

/**
 * Leadership could not read what it was asked for from ZooKeeper, such as the candidates of a
 * role while the ensemble is unreachable. The message names the role and the ZooKeeper path; the
 * cause is Curator's or ZooKeeper's exception.
 */
public class LeadershipException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/**
	 * Creates an exception.
	 * @param message what failed, naming the role
	 * @param cause the ZooKeeper or Curator failure
	 */
	public LeadershipException(String message, Throwable cause) {
		super(message, cause);
	}

}
