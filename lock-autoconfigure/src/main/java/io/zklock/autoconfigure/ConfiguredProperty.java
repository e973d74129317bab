package io.zklock.autoconfigure;

import java.util.Optional;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;

/**
 * A property as the user wrote it: the text of {@code zklock.zookeeper.session-timeout: -1s}
 * is {@code "-1s"}, not the {@code PT-1S} it binds to, and where it was written (a line of
 * {@code application.yml}, an environment variable, a command-line argument). Found with
 * relaxed binding, so {@code sessionTimeout} in YAML and {@code ZKLOCK_ZOOKEEPER_SESSIONTIMEOUT}
 * are found too.
 *
 * @param value the value as written
 * @param origin where it was written, or {@code null} if not known
 */
record ConfiguredProperty(Object value, @Nullable Origin origin) {

	/**
	 * Finds a property in the environment's property sources, the first that has it.
	 * @param environment the environment, or {@code null}
	 * @param name the property's canonical name, such as {@code "zklock.root-path"}
	 * @return the property, or empty if no source sets it
	 */
	static Optional<ConfiguredProperty> find(@Nullable Environment environment, String name) {
		if (!(environment instanceof ConfigurableEnvironment) || !ConfigurationPropertyName.isValid(name)) {
			return Optional.empty();
		}
		ConfigurationPropertyName propertyName = ConfigurationPropertyName.of(name);
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			ConfigurationProperty property = source.getConfigurationProperty(propertyName);
			if (property != null && property.getValue() != null) {
				return Optional.of(new ConfiguredProperty(property.getValue(), property.getOrigin()));
			}
		}
		return Optional.empty();
	}

}
