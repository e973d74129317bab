package io.zklock.autoconfigure;

import java.util.Optional;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.origin.Origin;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

/**
 * Reports an invalid {@code zklock.*} property value
 * ({@link InvalidConfigurationPropertyValueException}) with the value as the user wrote it
 * and where it was written, found with relaxed binding (Spring Boot's own analyzer of that
 * exception only finds a property under its exact name). Other properties are left to Spring
 * Boot.
 */
class ZkLockPropertyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidConfigurationPropertyValueException>
		implements Ordered {

	private final @Nullable Environment environment;

	ZkLockPropertyFailureAnalyzer(@Nullable Environment environment) {
		this.environment = environment;
	}

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure, InvalidConfigurationPropertyValueException cause) {
		if (!cause.getName().startsWith("zklock.")) {
			return null;
		}
		Optional<ConfiguredProperty> property = ConfiguredProperty.find(this.environment, cause.getName());
		Object value = property.map(ConfiguredProperty::value).orElse(cause.getValue());
		Origin origin = property.map(ConfiguredProperty::origin).orElse(null);
		StringBuilder description = new StringBuilder("Invalid value '").append(value)
			.append("' for configuration property '")
			.append(cause.getName())
			.append("'");
		if (origin != null) {
			description.append(" (originating from '").append(origin).append("')");
		}
		if (cause.getReason() != null) {
			description.append(": ").append(cause.getReason());
		}
		description.append('.');
		String action = "Update '" + cause.getName() + "'" + ((origin != null) ? " in " + origin : "") + ".";
		return new FailureAnalysis(description.toString(), action, cause);
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
