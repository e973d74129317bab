package io.zklock.autoconfigure.leadership;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.zklock.annotation.LeaderOnly;
import io.zklock.annotation.LeaderScoped;
import io.zklock.autoconfigure.ZkLockProperties;
import io.zklock.autoconfigure.ZkLockStartupException;
import io.zklock.interceptor.LeaderOnlyMethods;
import io.zklock.interceptor.LockedMethods;
import io.zklock.internal.LockPaths;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.annotation.AnnotatedBeanDefinition;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.Lifecycle;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.type.MethodMetadata;
import org.springframework.util.ClassUtils;

/**
 * The roles the application declares, found once its singletons exist and before the context
 * starts: the roles of {@link LeaderOnly} methods, of {@link LeaderScoped} beans (on their class or
 * {@code @Bean} method) and of {@code zklock.leadership.roles.*}. Declaring a role is enough to be
 * its candidate, unless {@code candidate=false} says otherwise. Fails start-up, naming what was
 * written and the fix, on a role that is not a valid lock path, a leader-scoped bean that does not
 * exist, is not a singleton {@link Lifecycle}, starts with the context
 * ({@link SmartLifecycle#isAutoStartup()}), or is scoped to two roles. Infrastructure beans are
 * skipped.
 */
final class LeadershipDeclarations implements SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(LeadershipDeclarations.class);

	private final ConfigurableListableBeanFactory beanFactory;

	private final ZkLockProperties.Leadership properties;

	private volatile Map<String, DeclaredRole> roles = Map.of();

	LeadershipDeclarations(ConfigurableListableBeanFactory beanFactory, ZkLockProperties.Leadership properties) {
		this.beanFactory = beanFactory;
		this.properties = properties;
	}

	/**
	 * The declared roles.
	 * @return the roles by role, in the order they were found: properties first
	 */
	Map<String, DeclaredRole> roles() {
		return this.roles;
	}

	/**
	 * The roles this instance is a candidate for.
	 * @return the roles, in the order they were found
	 */
	List<DeclaredRole> candidateRoles() {
		return this.roles.values().stream().filter(DeclaredRole::candidate).toList();
	}

	@Override
	public void afterSingletonsInstantiated() {
		Map<String, Found> found = new LinkedHashMap<>();
		Map<String, String> scopedBeans = new LinkedHashMap<>();
		String root = this.properties.getRootPath();
		this.properties.getRoles().forEach((written, settings) -> {
			String property = propertyOf(written);
			String role = propertyRole(written, property, root);
			Found entry = found.computeIfAbsent(role, (key) -> new Found());
			entry.declaredBy.add(property);
			entry.candidate = settings.getCandidate();
			for (String bean : settings.getLeaderScopedBeans()) {
				String name = bean.trim();
				if (!this.beanFactory.containsBean(name)) {
					throw new ZkLockStartupException(property + ".leader-scoped-beans names bean '" + name
							+ "', but the application has no bean of that name, so no work of role '" + role
							+ "' would be leader-scoped.",
							"Name an existing lifecycle bean (the names of the context's beans are listed by the beans "
									+ "actuator endpoint), or remove it from " + property + ".leader-scoped-beans.",
							null);
				}
				scope(scopedBeans, found, name, role, property + ".leader-scoped-beans");
			}
		});
		for (String name : this.beanFactory.getBeanDefinitionNames()) {
			BeanDefinition definition = this.beanFactory.getBeanDefinition(name);
			if (definition.getRole() == BeanDefinition.ROLE_INFRASTRUCTURE) {
				continue;
			}
			Class<?> type = this.beanFactory.getType(name, false);
			if (type != null) {
				for (Map.Entry<Method, String> method : LeaderOnlyMethods.of(ClassUtils.getUserClass(type)).entrySet()) {
					String site = "@LeaderOnly on " + LockedMethods.describe(method.getKey());
					String role = annotationRole(method.getValue(), site, root);
					found.computeIfAbsent(role, (key) -> new Found()).declaredBy.add(site);
				}
			}
			String scoped = leaderScopedRole(name, definition);
			if (scoped != null) {
				String site = "@LeaderScoped on bean '" + name + "'";
				String role = annotationRole(scoped, site, root);
				scope(scopedBeans, found, name, role, site);
			}
		}
		scopedBeans.forEach(this::checkLifecycle);
		Map<String, DeclaredRole> roles = new LinkedHashMap<>();
		found.forEach((role, entry) -> roles.put(role, new DeclaredRole(role,
				(entry.candidate != null) ? entry.candidate : this.properties.isCandidate(), List.copyOf(entry.beans),
				List.copyOf(entry.declaredBy))));
		this.roles = Map.copyOf(roles);
		if (logger.isDebugEnabled()) {
			logger.debug("Declared roles: " + roles.values());
		}
		List<String> notCandidate = roles.values().stream().filter((role) -> !role.candidate())
			.map(DeclaredRole::role).toList();
		if (!notCandidate.isEmpty()) {
			logger.info("This instance is no candidate for role(s) " + notCandidate
					+ " (zklock.leadership candidate=false): their @LeaderOnly calls are skipped here and their "
					+ "leader-scoped beans never start here");
		}
	}

	/** Adds a leader-scoped bean to a role; a bean scoped to two roles fails. */
	private void scope(Map<String, String> scopedBeans, Map<String, Found> found, String name, String role,
			String where) {
		String other = scopedBeans.putIfAbsent(name, role);
		if (other != null && !other.equals(role)) {
			throw new ZkLockStartupException("Bean '" + name + "' is leader-scoped for role '" + other + "' and, by "
					+ where + ", for role '" + role + "': the leaders of two roles would start and stop it.",
					"Scope each lifecycle bean to one role: remove one of the declarations, or split the work into two "
							+ "beans.",
					null);
		}
		Found entry = found.computeIfAbsent(role, (key) -> new Found());
		if (!entry.beans.contains(name)) {
			entry.beans.add(name);
			entry.declaredBy.add(where);
		}
	}

	/** A leader-scoped bean must be a singleton {@link Lifecycle} that the context does not start itself. */
	private void checkLifecycle(String name, String role) {
		Class<?> type = this.beanFactory.getType(name, false);
		if (type == null || !Lifecycle.class.isAssignableFrom(type)) {
			throw new ZkLockStartupException("Bean '" + name + "'" + ((type != null) ? " (" + type.getName() + ")" : "")
					+ " is leader-scoped for role '" + role + "' but is not a Lifecycle, so zklock cannot start it "
					+ "when this instance leads and stop it when the term is revoked.",
					"Make it a SmartLifecycle whose isAutoStartup() is false (such as a message listener container with "
							+ "autoStartup=false), or, for leader-only methods, annotate them with @LeaderOnly(\""
							+ role + "\") instead of scoping the bean.",
					null);
		}
		if (!this.beanFactory.isSingleton(name)) {
			throw new ZkLockStartupException("Bean '" + name + "' (" + type.getName() + ") is leader-scoped for role '"
					+ role + "' but is not a singleton, so zklock cannot tell which instance to start and stop.",
					"Make it a singleton bean, or scope a singleton that owns it.", null);
		}
		Object bean = this.beanFactory.getBean(name);
		if (bean instanceof SmartLifecycle smart && smart.isAutoStartup()) {
			throw new ZkLockStartupException("Bean '" + name + "' (" + type.getName() + ") is leader-scoped for role '"
					+ role + "' but starts with the application context (isAutoStartup() is true), so it would run on "
					+ "every instance, not only on the leader.",
					"Set its autoStartup to false (such as setAutoStartup(false), @KafkaListener(autoStartup = \"false\") "
							+ "or @JmsListener's container factory's autoStartup), or override isAutoStartup() to return "
							+ "false: zklock starts it when this instance leads role '" + role + "'.",
					null);
		}
	}

	/** The role of a {@link LeaderScoped} bean, on its class or its {@code @Bean} method. */
	private @Nullable String leaderScopedRole(String name, BeanDefinition definition) {
		if (definition instanceof AnnotatedBeanDefinition annotated) {
			MethodMetadata factoryMethod = annotated.getFactoryMethodMetadata();
			if (factoryMethod != null) {
				MergedAnnotation<LeaderScoped> onMethod = factoryMethod.getAnnotations().get(LeaderScoped.class);
				if (onMethod.isPresent()) {
					return onMethod.getString("value");
				}
			}
		}
		LeaderScoped onType = this.beanFactory.findAnnotationOnBean(name, LeaderScoped.class, false);
		return (onType != null) ? onType.value() : null;
	}

	/** The property of a role as written: {@code roles.billing-close}, or {@code roles[billing/close]}. */
	private static String propertyOf(String written) {
		String simple = "zklock.leadership.roles." + written;
		return ConfigurationPropertyName.isValid(simple) ? simple : "zklock.leadership.roles[" + written + "]";
	}

	private static String propertyRole(String written, String property, String root) {
		try {
			return LockPaths.normalize(written, root);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidConfigurationPropertyValueException(property, written,
					"the role is not a valid lock path (" + ex.getMessage() + "); write it as '/'-separated non-empty "
							+ "names without '.' or '..', such as 'billing-close', or '[billing/close]' for a role "
							+ "with a '/'");
		}
	}

	private static String annotationRole(String written, String site, String root) {
		try {
			return LockPaths.normalize(written, root);
		}
		catch (IllegalArgumentException ex) {
			throw new ZkLockStartupException(site + " has an invalid role '" + written + "': " + ex.getMessage() + ".",
					"Write the role as a lock path under the leadership root (zklock.leadership.root-path=" + root
							+ "): '/'-separated non-empty names without '.' or '..', such as 'billing-close' or "
							+ "'billing/close'.",
					ex);
		}
	}

	/** What is found of a role while scanning. */
	private static final class Found {

		private final List<String> declaredBy = new ArrayList<>();

		private final List<String> beans = new ArrayList<>();

		private @Nullable Boolean candidate;

	}

}
