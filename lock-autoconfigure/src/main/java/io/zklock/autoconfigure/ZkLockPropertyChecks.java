package io.zklock.autoconfigure;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.core.env.Environment;

/**
 * Checks bound {@code zklock.*} values that binding alone cannot, and builds Spring Boot's
 * {@link InvalidConfigurationPropertyValueException} for those that are wrong, carrying the
 * value as the user wrote it (see {@link ConfiguredProperty}).
 */
final class ZkLockPropertyChecks {

	private final @Nullable Environment environment;

	/**
	 * Creates the checks.
	 * @param environment where the properties come from, to echo values as written; may be
	 * {@code null}, then bound values are echoed
	 */
	ZkLockPropertyChecks(@Nullable Environment environment) {
		this.environment = environment;
	}

	/**
	 * The exception for a property whose value zklock cannot use.
	 * @param name the property, such as {@code "zklock.root-path"}
	 * @param boundValue the bound value, echoed only if the environment does not have the
	 * property (a default, or a value set in code)
	 * @param reason what is wrong with it and what would be right
	 * @return the exception
	 */
	InvalidConfigurationPropertyValueException invalid(String name, @Nullable Object boundValue, String reason) {
		Object value = ConfiguredProperty.find(this.environment, name)
			.map(ConfiguredProperty::value)
			.orElse(boundValue);
		return new InvalidConfigurationPropertyValueException(name, value, reason);
	}

	/**
	 * Whether a property source of the environment sets the property, however its name is
	 * written.
	 * @param name the property, such as {@code "zklock.zookeeper.connect-string"}
	 * @return {@code true} if it is set; {@code false} if not, or without an environment
	 */
	boolean isSet(String name) {
		return ConfiguredProperty.find(this.environment, name).isPresent();
	}

	/**
	 * Checks a duration and returns it in milliseconds for Curator's {@code int} settings.
	 * @param name the property
	 * @param value its bound value
	 * @param example a valid value to suggest, such as {@code "15s"}
	 * @return the duration in milliseconds
	 * @throws InvalidConfigurationPropertyValueException if it is missing, negative or longer
	 * than {@link Integer#MAX_VALUE} milliseconds
	 */
	int millis(String name, @Nullable Duration value, String example) {
		if (value == null) {
			throw invalid(name, null, "it is empty; set a duration such as '" + example + "'");
		}
		if (value.isNegative()) {
			throw invalid(name, value, "it is negative; set a duration such as '" + example + "'");
		}
		if (value.compareTo(Duration.ofMillis(Integer.MAX_VALUE)) > 0) {
			throw invalid(name, value,
					"it is longer than " + Integer.MAX_VALUE + " ms; set a duration such as '" + example + "'");
		}
		return (int) value.toMillis();
	}

	/**
	 * Checks a duration that must be positive, and returns it in milliseconds for Curator's
	 * {@code int} settings.
	 * @param name the property
	 * @param value its bound value
	 * @param example a valid value to suggest, such as {@code "15s"}
	 * @param zero what a zero would do, such as {@code "start-up would give up before the first
	 * connection is made"}
	 * @return the duration in milliseconds, at least 1
	 * @throws InvalidConfigurationPropertyValueException if it is missing, zero (or less than a
	 * millisecond), negative or longer than {@link Integer#MAX_VALUE} milliseconds
	 */
	int positiveMillis(String name, @Nullable Duration value, String example, String zero) {
		int millis = millis(name, value, example);
		if (millis == 0) {
			throw invalid(name, value, "it is zero: " + zero + "; set a duration such as '" + example + "'");
		}
		return millis;
	}

	/**
	 * Checks a count that must not be negative.
	 * @param name the property
	 * @param value its bound value
	 * @return the value
	 * @throws InvalidConfigurationPropertyValueException if it is negative
	 */
	int count(String name, int value) {
		if (value < 0) {
			throw invalid(name, value, "it is negative; set 0 or more");
		}
		return value;
	}

}
