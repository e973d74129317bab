package io.zklock.autoconfigure;

/**
 * {@link ZkLockConnectionDetails} from {@code zklock.zookeeper.connect-string}. The value is
 * checked when the client is built, which reports a bad one against the property.
 */
final class PropertiesZkLockConnectionDetails implements ZkLockConnectionDetails {

	private final ZkLockProperties.ZooKeeper properties;

	PropertiesZkLockConnectionDetails(ZkLockProperties.ZooKeeper properties) {
		this.properties = properties;
	}

	@Override
	public String getConnectString() {
		return this.properties.getConnectString();
	}

}
