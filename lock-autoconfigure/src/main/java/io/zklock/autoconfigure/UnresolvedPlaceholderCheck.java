package io.zklock.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import org.springframework.util.PropertyPlaceholderHelper;
import org.springframework.util.SystemPropertyUtils;

/**
 * Fails start-up on a {@code zklock.*} value that holds a {@code ${…}} placeholder nothing
 * resolves. Spring Boot binds such a value as its text: {@code credentials: ${ZK_LOCK_CREDENTIALS}}
 * with the variable unset would make the text {@code ${ZK_LOCK_CREDENTIALS}} the credentials, a
 * password known to everyone and shared by every instance that missed the variable, and the lock
 * root would be created creator-only under it. The failure names the property, where it was
 * written and the placeholder, never the value itself (a credential may hold resolved secrets
 * beside the placeholder). Placeholders are resolved as Spring Boot's binder resolves them
 * (every property source, defaults after {@code :}, {@code \} to escape); only one that resolves
 * to nothing fails. A {@link BeanFactoryPostProcessor}, so that it runs before any bean is
 * created: before the client connects anywhere or creates the lock root.
 */
final class UnresolvedPlaceholderCheck implements BeanFactoryPostProcessor {

	private static final ConfigurationPropertyName ZKLOCK = ConfigurationPropertyName.of("zklock");

	private final Environment environment;

	UnresolvedPlaceholderCheck(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		if (!(this.environment instanceof ConfigurableEnvironment configurable)) {
			return;
		}
		// by name, so that the message lists them in the same order at every start
		Map<String, Unresolved> unresolved = new TreeMap<>();
		Set<ConfigurationPropertyName> seen = new LinkedHashSet<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(configurable)) {
			if (!(source instanceof IterableConfigurationPropertySource iterable)) {
				continue;
			}
			for (ConfigurationPropertyName name : iterable.filter(ZKLOCK::isAncestorOf).stream().toList()) {
				// the first source that has a name is the one the binder takes its value from
				if (!seen.add(name)) {
					continue;
				}
				ConfigurationProperty property = source.getConfigurationProperty(name);
				if (property != null && property.getValue() instanceof CharSequence value) {
					String placeholder = unresolvedPlaceholder(value.toString(), configurable);
					if (placeholder != null) {
						unresolved.put(name.toString(), new Unresolved(name, placeholder, property.getOrigin()));
					}
				}
			}
		}
		if (!unresolved.isEmpty()) {
			throw failure(List.copyOf(unresolved.values()));
		}
	}

	/**
	 * The first placeholder of {@code value} that nothing resolves, as Spring Boot's binder
	 * resolves placeholders.
	 * @return the placeholder, such as {@code ${ZK_LOCK_CREDENTIALS}}, or {@code null} if every
	 * placeholder resolves
	 */
	static @Nullable String unresolvedPlaceholder(String value, ConfigurableEnvironment environment) {
		if (!value.contains(SystemPropertyUtils.PLACEHOLDER_PREFIX)) {
			return null;
		}
		PropertyPlaceholderHelper strict = new PropertyPlaceholderHelper(SystemPropertyUtils.PLACEHOLDER_PREFIX,
				SystemPropertyUtils.PLACEHOLDER_SUFFIX, SystemPropertyUtils.VALUE_SEPARATOR,
				SystemPropertyUtils.ESCAPE_CHARACTER, false);
		List<String> missing = new ArrayList<>();
		try {
			strict.replacePlaceholders(value, (name) -> {
				String resolved = lookUp(name, environment);
				if (resolved == null) {
					missing.add(name);
				}
				return resolved;
			});
			return null;
		}
		catch (IllegalArgumentException ex) {
			// the helper gives up at the first name that resolves to nothing and has no default:
			// the last one looked up in vain (a circular reference is Boot's to report)
			return missing.isEmpty() ? null
					: SystemPropertyUtils.PLACEHOLDER_PREFIX + missing.get(missing.size() - 1)
							+ SystemPropertyUtils.PLACEHOLDER_SUFFIX;
		}
	}

	/** A placeholder's name looked up as Boot's {@code PropertySourcesPlaceholdersResolver} does. */
	private static @Nullable String lookUp(String name, ConfigurableEnvironment environment) {
		for (PropertySource<?> source : environment.getPropertySources()) {
			Object value = source.getProperty(name);
			if (value != null) {
				return String.valueOf(value);
			}
		}
		return null;
	}

	private static ZkLockStartupException failure(List<Unresolved> unresolved) {
		String names = unresolved.stream()
			.map(Unresolved::placeholderName)
			.distinct()
			.collect(Collectors.joining(", "));
		if (unresolved.size() == 1) {
			Unresolved only = unresolved.get(0);
			return new ZkLockStartupException("The value of " + only.name() + where(only.origin())
					+ " holds the placeholder '" + only.placeholder() + "', which nothing resolves: zklock would "
					+ "take the text '" + only.placeholder() + "' as the value.",
					"Set " + names + " (an environment variable or a property) for the application, or change "
							+ only.name() + ((only.origin() != null) ? " in " + only.origin() : "") + ".",
					null);
		}
		List<String> lines = new ArrayList<>();
		for (Unresolved each : unresolved) {
			lines.add("- " + each.name() + where(each.origin()) + ": '" + each.placeholder() + "'");
		}
		return new ZkLockStartupException("These zklock properties hold placeholders that nothing resolves, so zklock "
				+ "would take their text as their values:\n" + String.join("\n", lines),
				"Set " + names + " (environment variables or properties) for the application, or change these "
						+ "properties.",
				null);
	}

	private static String where(@Nullable Origin origin) {
		return (origin != null) ? " (originating from '" + origin + "')" : "";
	}

	/**
	 * A property whose value holds a placeholder nothing resolves.
	 * @param name the property
	 * @param placeholder the placeholder, such as {@code ${ZK_LOCK_CREDENTIALS}}
	 * @param origin where the value was written, or {@code null} if not known
	 */
	private record Unresolved(ConfigurationPropertyName name, String placeholder, @Nullable Origin origin) {

		String placeholderName() {
			return this.placeholder.substring(2, this.placeholder.length() - 1);
		}

	}

}
