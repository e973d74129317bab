package io.zklock.autoconfigure;

/**
 * Thrown at start-up when a {@code zklock.*} property holds a value zklock cannot use.
 *
 * @deprecated zklock reports invalid property values with Spring Boot's
 * {@link org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException},
 * whose failure analysis shows the value as written and where it was written; use that, or
 * {@link ZkLockStartupException} for a failure that is not one property's value. Kept until
 * the last caller moves.
 */
@Deprecated(forRemoval = true)
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
