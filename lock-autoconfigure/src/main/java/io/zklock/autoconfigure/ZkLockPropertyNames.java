package io.zklock.autoconfigure;

import java.beans.PropertyDescriptor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;

/**
 * The names of zklock's properties, read from {@link ZkLockProperties} and its nested groups
 * (so they need no generated metadata at run time), and the known name nearest to a mistyped
 * one. A map of groups (such as {@code zklock.leadership.roles}) is a property itself, and its
 * entries' properties are known under any key ({@code zklock.leadership.roles.<role>.candidate}).
 * Thread-safe (immutable).
 */
final class ZkLockPropertyNames {

	private static final String PREFIX = "zklock";

	private final List<ConfigurationPropertyName> properties;

	private final List<ConfigurationPropertyName> groups;

	/** The maps of groups, each with the properties of its entries' group, dashed. */
	private final Map<ConfigurationPropertyName, List<String>> maps;

	private ZkLockPropertyNames(List<ConfigurationPropertyName> properties, List<ConfigurationPropertyName> groups,
			Map<ConfigurationPropertyName, List<String>> maps) {
		this.properties = properties;
		this.groups = groups;
		this.maps = maps;
	}

	/**
	 * The names of {@link ZkLockProperties}.
	 * @return the names
	 */
	static ZkLockPropertyNames of() {
		List<ConfigurationPropertyName> properties = new ArrayList<>();
		List<ConfigurationPropertyName> groups = new ArrayList<>();
		ConfigurationPropertyName root = ConfigurationPropertyName.of(PREFIX);
		groups.add(root);
		Map<ConfigurationPropertyName, List<String>> maps = new LinkedHashMap<>();
		collect(ZkLockProperties.class, root, properties, groups, maps);
		return new ZkLockPropertyNames(List.copyOf(properties), List.copyOf(groups), Map.copyOf(maps));
	}

	private static void collect(Class<?> type, ConfigurationPropertyName prefix, List<ConfigurationPropertyName> properties,
			List<ConfigurationPropertyName> groups, Map<ConfigurationPropertyName, List<String>> maps) {
		for (PropertyDescriptor descriptor : BeanUtils.getPropertyDescriptors(type)) {
			if (descriptor.getReadMethod() == null || descriptor.getPropertyType() == null
					|| descriptor.getName().equals("class")) {
				continue;
			}
			ConfigurationPropertyName name = prefix.append(DataObjectPropertyName.toDashedForm(descriptor.getName()));
			Class<?> propertyType = descriptor.getPropertyType();
			Class<?> entryGroup = Map.class.isAssignableFrom(propertyType) ? mapValueGroup(descriptor) : null;
			if (entryGroup != null) {
				// the map is a property (Boot's metadata lists it); its entries' properties are known under any key
				properties.add(name);
				groups.add(name);
				List<ConfigurationPropertyName> entries = new ArrayList<>();
				collect(entryGroup, ConfigurationPropertyName.of("entry"), entries, new ArrayList<>(),
						new LinkedHashMap<>());
				maps.put(name, entries.stream()
					.map((entry) -> entry.getLastElement(ConfigurationPropertyName.Form.DASHED))
					.toList());
			}
			else if (isGroup(propertyType)) {
				groups.add(name);
				collect(propertyType, name, properties, groups, maps);
			}
			else if (descriptor.getWriteMethod() != null) {
				// a getter without a setter that is no group says something derived, such as isTls()
				properties.add(name);
			}
		}
	}

	/** The group class of a map property's values, or {@code null} if its values are not a group. */
	private static @Nullable Class<?> mapValueGroup(PropertyDescriptor descriptor) {
		Type type = descriptor.getReadMethod().getGenericReturnType();
		if (type instanceof ParameterizedType parameterized && parameterized.getActualTypeArguments().length == 2
				&& parameterized.getActualTypeArguments()[1] instanceof Class<?> value && isGroup(value)) {
			return value;
		}
		return null;
	}

	/** A nested class of {@link ZkLockProperties} that holds properties, not a value such as an enum. */
	private static boolean isGroup(Class<?> type) {
		if (type.isEnum()) {
			return false;
		}
		for (Class<?> enclosing = type.getEnclosingClass(); enclosing != null; enclosing = enclosing
			.getEnclosingClass()) {
			if (enclosing == ZkLockProperties.class) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Every property of zklock.
	 * @return the names, in {@link ZkLockProperties}' order of groups
	 */
	List<ConfigurationPropertyName> properties() {
		return this.properties;
	}

	/**
	 * Whether {@code name} is a property of zklock, however it is written
	 * ({@code connect-string}, {@code connectString}).
	 * @param name a property name under {@code zklock}
	 * @return {@code true} if it is one of {@link ZkLockProperties}
	 */
	boolean isKnown(ConfigurationPropertyName name) {
		ConfigurationPropertyName property = withoutIndexes(name);
		return this.properties.contains(property) || isMapEntryProperty(property);
	}

	/** A list property's element ({@code beans[0]}) is the list property itself. */
	private static ConfigurationPropertyName withoutIndexes(ConfigurationPropertyName name) {
		ConfigurationPropertyName property = name;
		while (property.getNumberOfElements() > 1 && property.isLastElementIndexed()) {
			property = property.getParent();
		}
		return property;
	}

	/** Whether {@code name} is a property of an entry of a map of groups, under any key. */
	private boolean isMapEntryProperty(ConfigurationPropertyName name) {
		return expandedMapProperties(name).anyMatch(name::equals);
	}

	/**
	 * The properties of the map entry that {@code name} is under, with its key: for
	 * {@code zklock.leadership.roles.billing.candiate}, {@code zklock.leadership.roles.billing.candidate}
	 * and the entry's other properties.
	 */
	private Stream<ConfigurationPropertyName> expandedMapProperties(ConfigurationPropertyName name) {
		List<ConfigurationPropertyName> expanded = new ArrayList<>();
		this.maps.forEach((map, entryProperties) -> {
			if (map.isAncestorOf(name) && name.getNumberOfElements() >= map.getNumberOfElements() + 2) {
				ConfigurationPropertyName entry = name.chop(name.getNumberOfElements() - 1);
				entryProperties.forEach((property) -> expanded.add(entry.append(property)));
			}
		});
		return expanded.stream();
	}

	/**
	 * Whether {@code variable} is an environment variable Boot binds to a property of zklock, in
	 * either of its forms ({@code ZKLOCK_ZOOKEEPER_CONNECTSTRING},
	 * {@code ZKLOCK_ZOOKEEPER_CONNECT_STRING}).
	 * @param variable the variable's name in upper case
	 * @return {@code true} if it is one of {@link ZkLockProperties}
	 */
	boolean isKnownVariable(String variable) {
		for (ConfigurationPropertyName property : this.properties) {
			if (variable.equals(variableOf(property)) || variable.equals(legacyVariableOf(property))) {
				return true;
			}
		}
		for (Map.Entry<ConfigurationPropertyName, List<String>> map : this.maps.entrySet()) {
			String prefix = variableOf(map.getKey()) + "_";
			for (String property : map.getValue()) {
				ConfigurationPropertyName last = ConfigurationPropertyName.of(property);
				// a key of one or more words, then the property in either form
				if (variable.startsWith(prefix) && variable.length() > prefix.length()
						&& (variable.endsWith("_" + variableOf(last)) || variable.endsWith("_" + legacyVariableOf(last)))
						&& variable.length() > prefix.length() + variableOf(last).length() + 1) {
					return true;
				}
			}
		}
		return false;
	}

	/**
	 * The environment variable Boot's documentation gives for a property: dots as underscores,
	 * dashes removed, upper case.
	 * @param property a property name
	 * @return the variable's name, such as {@code ZKLOCK_ZOOKEEPER_CONNECTSTRING}
	 */
	static String variableOf(ConfigurationPropertyName property) {
		StringBuilder variable = new StringBuilder();
		for (int i = 0; i < property.getNumberOfElements(); i++) {
			variable.append((i > 0) ? "_" : "").append(property.getElement(i, ConfigurationPropertyName.Form.UNIFORM));
		}
		return variable.toString().toUpperCase(Locale.ROOT);
	}

	/** The form Boot also binds, with dashes as underscores, such as {@code ZKLOCK_ZOOKEEPER_CONNECT_STRING}. */
	private static String legacyVariableOf(ConfigurationPropertyName property) {
		return property.toString().replace('.', '_').replace('-', '_').toUpperCase(Locale.ROOT);
	}

	/**
	 * The known property nearest to a mistyped one, if it is near enough to be what was meant:
	 * within an edit distance (insertions, deletions, substitutions and swaps of two neighbours)
	 * of a sixth of the name's length, and at least 2.
	 * @param unknown a name that is not known
	 * @return the nearest property, such as {@code zklock.zookeeper.connect-string} for
	 * {@code zklock.zookeper.connect-string}, or empty if none is that near
	 */
	Optional<ConfigurationPropertyName> nearest(ConfigurationPropertyName unknown) {
		String typed = uniform(unknown);
		int limit = Math.max(2, typed.length() / 6);
		return Stream.concat(this.properties.stream(), expandedMapProperties(unknown))
			.filter((known) -> distance(typed, uniform(known)) <= limit)
			.min(Comparator.comparingInt((ConfigurationPropertyName known) -> distance(typed, uniform(known))));
	}

	/**
	 * The deepest group of properties that contains {@code unknown}, such as
	 * {@code zklock.zookeeper} for {@code zklock.zookeeper.timeout}.
	 * @param unknown a name under {@code zklock}
	 * @return the group, {@code zklock} at least
	 */
	ConfigurationPropertyName groupOf(ConfigurationPropertyName unknown) {
		ConfigurationPropertyName group = this.groups.get(0);
		for (ConfigurationPropertyName candidate : this.groups) {
			if (candidate.isAncestorOf(unknown) && candidate.getNumberOfElements() > group.getNumberOfElements()) {
				group = candidate;
			}
		}
		return group;
	}

	/**
	 * What a group holds, relative to it: its properties, and {@code name.*} for each group in it,
	 * such as {@code connect-string}, …, {@code retry.*} for {@code zklock.zookeeper}.
	 * @param group a group of {@link #groupOf}
	 * @return the names, the properties first, each kind in alphabetical order
	 */
	List<String> contentsOf(ConfigurationPropertyName group) {
		Set<String> contents = new LinkedHashSet<>();
		int depth = group.getNumberOfElements();
		for (ConfigurationPropertyName property : this.properties) {
			if (group.isParentOf(property) && !this.maps.containsKey(property)) {
				contents.add(property.getLastElement(ConfigurationPropertyName.Form.DASHED));
			}
		}
		List<String> entryProperties = this.maps.get(group);
		if (entryProperties != null) {
			// a map of groups: what each entry holds
			entryProperties.forEach((property) -> contents.add("<name>." + property));
			return List.copyOf(contents);
		}
		for (ConfigurationPropertyName nested : this.groups) {
			if (group.isParentOf(nested)) {
				contents.add(nested.getElement(depth, ConfigurationPropertyName.Form.DASHED) + ".*");
			}
		}
		return List.copyOf(contents);
	}

	/** The name as compared: lower case, letters, digits and dots, so that the form it is written in does not count. */
	private static String uniform(ConfigurationPropertyName name) {
		StringBuilder uniform = new StringBuilder();
		for (int i = 0; i < name.getNumberOfElements(); i++) {
			uniform.append((i > 0) ? "." : "").append(name.getElement(i, ConfigurationPropertyName.Form.UNIFORM));
		}
		return uniform.toString();
	}

	/** Edit distance with swaps of two neighbours (optimal string alignment). */
	static int distance(String a, String b) {
		int[][] d = new int[a.length() + 1][b.length() + 1];
		for (int i = 0; i <= a.length(); i++) {
			d[i][0] = i;
		}
		for (int j = 0; j <= b.length(); j++) {
			d[0][j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			for (int j = 1; j <= b.length(); j++) {
				int cost = (a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1;
				d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
				if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
					d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
				}
			}
		}
		return d[a.length()][b.length()];
	}

}
