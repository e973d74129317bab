package io.zklock.autoconfigure;

/**
 * {@link ZkLockConnectionDetails} from {@code zklock.zookeeper.connect-string}.
 */
final class PropertiesZkLockConnectionDetails implements ZkLockConnectionDetails {

	private final ZkLockProperties.Zookeeper properties;

	PropertiesZkLockConnectionDetails(ZkLockProperties.Zookeeper properties) {
		this.properties = properties;
	}

	@Override
	public String getConnectString() {
		String connectString = this.properties.getConnectString();
		if (connectString == null || connectString.isBlank()) {
			throw new ZkLockConfigurationException("zklock.zookeeper.connect-string",
					"zklock.zookeeper.connect-string is empty.",
					"Set it to the ensemble's host:port pairs, such as 'zk1:2181,zk2:2181,zk3:2181', "
							+ "or set zklock.zookeeper.embedded.enabled=true for an in-process server.",
					null);
		}
		return connectString;
	}

}
