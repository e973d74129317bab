package io.zklock.autoconfigure;

/**
 * Thrown at start-up when a {@code zklock.*} property holds a value zklock cannot use.
 */
public class ZkLockConfigurationException extends ZkLockStartupException {

	private final String property;

	/**
	 * Creates the exception.
	 * @param property the property, such as {@code "zklock.root-path"}
	 * @param description what is wrong with its value, naming the value
	 * @param action what to set instead
	 * @param cause the underlying failure, or {@code null}
	 */
	public ZkLockConfigurationException(String property, String description, String action, Throwable cause) {
		super(description, action, cause);
		this.property = property;
	}

	/**
	 * The property with the bad value.
	 * @return the property name
	 */
	public String getProperty() {
		return this.property;
	}

}
