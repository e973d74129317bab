package io.zklock.autoconfigure;

import javax.security.auth.login.AppConfigurationEntry;
import javax.security.auth.login.Configuration;

import org.apache.zookeeper.client.ZKClientConfig;

/**
 * Whether ZooKeeper's SASL client would authenticate: as {@code ZooKeeperSaslClient} decides, when the JAAS
 * configuration has the client's login section ({@code zookeeper.sasl.clientconfig}, default {@code Client}).
 */
final class SaslClientSection {

	private SaslClientSection() {
	}

	/**
	 * Whether the JAAS configuration has the login section the client would use.
	 * @param config the client's configuration
	 * @return {@code true} if it has, or if the JAAS configuration cannot be read (then SASL is left alone)
	 */
	static boolean isConfigured(ZKClientConfig config) {
		String section = config.getProperty(ZKClientConfig.LOGIN_CONTEXT_NAME_KEY,
				ZKClientConfig.LOGIN_CONTEXT_NAME_KEY_DEFAULT);
		try {
			AppConfigurationEntry[] entries = Configuration.getConfiguration().getAppConfigurationEntry(section);
			return entries != null;
		}
		catch (SecurityException | IllegalArgumentException ex) {
			return true;
		}
	}

}
