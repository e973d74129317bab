package io.zklock.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Fails start-up on a {@code zklock.*} property that zklock does not have, naming it as written
 * and the property nearest to it: a typo such as {@code zklock.zookeper.connect-string} would
 * otherwise be ignored, and zklock would lock on {@code localhost:2181}.
 * <p>
 * In the property sources an application writes ({@code application.yml} and its profiles,
 * command-line arguments, test properties) every unknown {@code zklock.*} key fails, in any of
 * the forms Boot binds ({@code connect-string}, {@code connectString}, {@code connect_string}).
 * System properties and environment variables also carry names of other programs (a script's
 * {@code ZKLOCK_HOME}), so there an unknown key fails only when it is near a known one
 * ({@code ZKLOCK_ZOOKEPER_CONNECTSTRING}); both of Boot's environment variable forms of a known
 * property ({@code ZKLOCK_ZOOKEEPER_CONNECTSTRING}, {@code ZKLOCK_ZOOKEEPER_CONNECT_STRING}) are
 * known. Keys of zklock's other artifacts under {@code zklock} are theirs ({@code zklock.integration.*}
 * of {@code zklock-spring-integration}); that is why {@link ZkLockProperties} does not refuse
 * unknown fields itself. A {@link BeanFactoryPostProcessor}, so that it runs before any bean is
 * created: before the client connects anywhere.
 */
final class UnknownPropertiesCheck implements BeanFactoryPostProcessor {

	/** The prefixes of zklock's other artifacts' properties, left to them. */
	private static final Set<ConfigurationPropertyName> OTHER_ARTIFACTS = Set
		.of(ConfigurationPropertyName.of("zklock.integration"));

	private static final ConfigurationPropertyName ZKLOCK = ConfigurationPropertyName.of("zklock");

	private final Environment environment;

	UnknownPropertiesCheck(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		if (!(this.environment instanceof ConfigurableEnvironment configurable)) {
			return;
		}
		ZkLockPropertyNames names = ZkLockPropertyNames.of();
		TreeMap<String, Unknown> unknown = new TreeMap<>();
		for (PropertySource<?> source : configurable.getPropertySources()) {
			if (!(source instanceof EnumerablePropertySource<?> enumerable)) {
				continue;
			}
			boolean variables = isEnvironmentVariables(source);
			boolean lenient = variables || StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME.equals(source.getName());
			for (String written : enumerable.getPropertyNames()) {
				Unknown found = variables ? variable(written, names) : property(written, names, lenient);
				if (found != null && !unknown.containsKey(written)) {
					unknown.put(written, found.from(PropertySourceOrigin.get(source, written)));
				}
			}
		}
		if (!unknown.isEmpty()) {
			throw failure(List.copyOf(unknown.values()), names);
		}
	}

	private static boolean isEnvironmentVariables(PropertySource<?> source) {
		return source instanceof SystemEnvironmentPropertySource
				|| source.getName().endsWith(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
	}

	/** A key of a property file, the command line or system properties, if zklock lacks it. */
	private static @Nullable Unknown property(String written, ZkLockPropertyNames names, boolean lenient) {
		ConfigurationPropertyName name = ConfigurationPropertyName.adapt(written, '.');
		if (!ZKLOCK.isAncestorOf(name) || names.isKnown(name) || ofOtherArtifact(name)) {
			return null;
		}
		Optional<ConfigurationPropertyName> nearest = names.nearest(name);
		if (lenient && nearest.isEmpty()) {
			return null;
		}
		return new Unknown(written, name, nearest.map(ConfigurationPropertyName::toString).orElse(null), null);
	}

	/** An environment variable {@code ZKLOCK_…}, if it is near a property zklock has but none of them. */
	private static @Nullable Unknown variable(String written, ZkLockPropertyNames names) {
		String upper = written.toUpperCase(Locale.ROOT);
		if (!upper.startsWith("ZKLOCK_") || names.isKnownVariable(upper)) {
			return null;
		}
		ConfigurationPropertyName name = ConfigurationPropertyName.adapt(upper.toLowerCase(Locale.ROOT).replace('_', '.'),
				'.');
		if (ofOtherArtifact(name)) {
			return null;
		}
		return names.nearest(name)
			.map((meant) -> new Unknown(written, name, ZkLockPropertyNames.variableOf(meant) + " (" + meant + ")", null))
			.orElse(null);
	}

	private static boolean ofOtherArtifact(ConfigurationPropertyName name) {
		return OTHER_ARTIFACTS.stream().anyMatch((prefix) -> prefix.equals(name) || prefix.isAncestorOf(name));
	}

	private static ZkLockStartupException failure(List<Unknown> unknown, ZkLockPropertyNames names) {
		if (unknown.size() == 1) {
			Unknown only = unknown.get(0);
			String hint = only.hint(names);
			String description = "zklock has no property '" + only.written() + "'" + where(only.origin())
					+ ", so its value would be ignored: " + hint + (hint.endsWith("?") ? "" : ".");
			String in = (only.origin() != null) ? " in " + only.origin() : "";
			String action = (only.meant() != null) ? "Rename it to " + only.meant().replaceFirst(" \\(.*\\)$", "") + in
					+ ", or remove it."
					: "Rename it to the property you meant" + in
							+ ", or remove it; every zklock property is listed in zklock's docs/configuration.md (Properties).";
			return new ZkLockStartupException(description, action, null);
		}
		List<String> lines = new ArrayList<>();
		for (Unknown each : unknown) {
			lines.add("- '" + each.written() + "'" + where(each.origin()) + ": " + each.hint(names));
		}
		return new ZkLockStartupException(
				"zklock has no properties by these names, so their values would be ignored:\n" + String.join("\n", lines),
				"Rename each to the property you meant, or remove it; every zklock property is listed in zklock's "
						+ "docs/configuration.md (Properties).",
				null);
	}

	private static String where(@Nullable Origin origin) {
		return (origin != null) ? " (originating from '" + origin + "')" : "";
	}

	/**
	 * An unknown key.
	 * @param written the key as written in its source
	 * @param name the key as Boot reads it
	 * @param meant the known key nearest to it, as it would be written there, or {@code null}
	 * @param origin where it was written, or {@code null} if not known
	 */
	private record Unknown(String written, ConfigurationPropertyName name, @Nullable String meant,
			@Nullable Origin origin) {

		Unknown from(@Nullable Origin origin) {
			return new Unknown(this.written, this.name, this.meant, origin);
		}

		String hint(ZkLockPropertyNames names) {
			if (this.meant != null) {
				return "did you mean " + this.meant + "?";
			}
			ConfigurationPropertyName group = names.groupOf(this.name);
			return "the properties under " + group + " are " + String.join(", ", names.contentsOf(group));
		}

	}

}
