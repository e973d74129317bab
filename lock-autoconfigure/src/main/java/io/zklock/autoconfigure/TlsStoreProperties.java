package io.zklock.autoconfigure;

/**
 * A key store or trust store file: {@code zklock.zookeeper.ssl.key-store.*} and
 * {@code zklock.zookeeper.ssl.trust-store.*}.
 */
public class TlsStoreProperties {

	/**
	 * Path of the store file.
	 */
	private String location;

	/**
	 * Password of the store. Never logged.
	 */
	private String password;

	/**
	 * Type of the store: 'PKCS12', 'JKS' or 'PEM'; empty to detect it from the file name.
	 */
	private String type;

	/**
	 * The value of {@code zklock.zookeeper.ssl.key-store.location} or {@code zklock.zookeeper.ssl.trust-store.location}.
	 * @return the value
	 */
	public String getLocation() {
		return this.location;
	}

	/**
	 * Sets {@code zklock.zookeeper.ssl.key-store.location} or {@code zklock.zookeeper.ssl.trust-store.location}.
	 * @param location the value
	 */
	public void setLocation(String location) {
		this.location = location;
	}

	/**
	 * The value of {@code zklock.zookeeper.ssl.key-store.password} or {@code zklock.zookeeper.ssl.trust-store.password}.
	 * @return the value
	 */
	public String getPassword() {
		return this.password;
	}

	/**
	 * Sets {@code zklock.zookeeper.ssl.key-store.password} or {@code zklock.zookeeper.ssl.trust-store.password}.
	 * @param password the value
	 */
	public void setPassword(String password) {
		this.password = password;
	}

	/**
	 * The value of {@code zklock.zookeeper.ssl.key-store.type} or {@code zklock.zookeeper.ssl.trust-store.type}.
	 * @return the value
	 */
	public String getType() {
		return this.type;
	}

	/**
	 * Sets {@code zklock.zookeeper.ssl.key-store.type} or {@code zklock.zookeeper.ssl.trust-store.type}.
	 * @param type the value
	 */
	public void setType(String type) {
		this.type = type;
	}

}
