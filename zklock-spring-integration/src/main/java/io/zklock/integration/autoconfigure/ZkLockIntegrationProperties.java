package io.zklock.integration.autoconfigure;

import io.zklock.integration.ZkLockRegistry;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of zklock's Spring Integration support ({@code zklock.integration.*}).
 *
 * @author zklock
 */
@ConfigurationProperties("zklock.integration")
public class ZkLockIntegrationProperties {

	private final LockRegistry lockRegistry = new LockRegistry();

	/**
	 * The {@code zklock.integration.lock-registry.*} group.
	 * @return the group
	 */
	public LockRegistry getLockRegistry() {
		return this.lockRegistry;
	}

	/** Settings of the auto-configured {@link ZkLockRegistry}. */
	public static class LockRegistry {

		/**
		 * Whether to auto-configure a ZkLockRegistry as Spring Integration's LockRegistry when the
		 * application defines none.
		 */
		private boolean enabled = true;

		/**
		 * Lock path, under zklock.root-path, under which the registry locks its keys; empty to lock
		 * keys directly under the root.
		 */
		private String prefix = ZkLockRegistry.DEFAULT_PREFIX;

		/**
		 * {@code zklock.integration.lock-registry.enabled}.
		 * @return whether the registry is auto-configured
		 */
		public boolean isEnabled() {
			return this.enabled;
		}

		/**
		 * {@code zklock.integration.lock-registry.enabled}.
		 * @param enabled whether the registry is auto-configured
		 */
		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		/**
		 * {@code zklock.integration.lock-registry.prefix}.
		 * @return the lock-path prefix of keys
		 */
		public String getPrefix() {
			return this.prefix;
		}

		/**
		 * {@code zklock.integration.lock-registry.prefix}.
		 * @param prefix the lock-path prefix of keys
		 */
		public void setPrefix(String prefix) {
			this.prefix = prefix;
		}

	}

}
