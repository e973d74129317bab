package io.zklock.autoconfigure;

/**
 * Authentication to ZooKeeper, {@code zklock.zookeeper.auth.*}. With credentials set, lock nodes and their parents are
 * created readable and writable only by these credentials.
 */
public class ZooKeeperAuthProperties {

	/**
	 * Authentication scheme, such as 'digest'.
	 */
	private String scheme = "digest";

	/**
	 * Credentials for the scheme, such as 'user:password' for digest. Never logged.
	 */
	private String credentials;

	/**
	 * Whether start-up fails, instead of logging a warning, when the lock root lets
	 * anyone create or delete nodes under it.
	 */
	private boolean failOnOpenAcl;

	/**
	 * The value of {@code zklock.zookeeper.auth.scheme}.
	 * @return the value
	 */
	public String getScheme() {
		return this.scheme;
	}

	/**
	 * Sets {@code zklock.zookeeper.auth.scheme}.
	 * @param scheme the value
	 */
	public void setScheme(String scheme) {
		this.scheme = scheme;
	}

	/**
	 * The value of {@code zklock.zookeeper.auth.credentials}.
	 * @return the value
	 */
	public String getCredentials() {
		return this.credentials;
	}

	/**
	 * Sets {@code zklock.zookeeper.auth.credentials}.
	 * @param credentials the value
	 */
	public void setCredentials(String credentials) {
		this.credentials = credentials;
	}

	/**
	 * The value of {@code zklock.zookeeper.auth.fail-on-open-acl}.
	 * @return the value
	 */
	public boolean isFailOnOpenAcl() {
		return this.failOnOpenAcl;
	}

	/**
	 * Sets {@code zklock.zookeeper.auth.fail-on-open-acl}.
	 * @param failOnOpenAcl the value
	 */
	public void setFailOnOpenAcl(boolean failOnOpenAcl) {
		this.failOnOpenAcl = failOnOpenAcl;
	}

	/**
	 * Whether credentials are set.
	 * @return {@code true} if authentication is configured
	 */
	public boolean isConfigured() {
		return this.credentials != null && !this.credentials.isEmpty();
	}

}
