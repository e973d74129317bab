package io.zklock.autoconfigure;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.zklock.interceptor.LeaderOnlyMethods;
import io.zklock.interceptor.LockedMethods;

import org.springframework.aop.framework.Advised;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.FactoryBean;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Makes {@code @LeaderOnly} fail closed: once the singletons exist, and before the application
 * runs, checks that every {@code @LeaderOnly} method of the application's beans runs only on the
 * leader of its role, since a method that escapes the interceptor would run on every instance.
 * <ul>
 * <li>With {@code zklock.enabled=false} they run on every instance without a term, on purpose:
 * one INFO line says how many.</li>
 * <li>Without Curator on the class path, or without zklock's {@code @LeaderOnly} advisor
 * ({@code zklock.leadership.enabled=false}, or the auto-configuration excluded): start-up
 * fails naming the methods.</li>
 * <li>A private, static, or (under a class-based proxy) final method, or a bean that is not a proxy
 * with zklock's advisor: start-up fails naming each method.</li>
 * </ul>
 * Active whenever zklock-spring-boot is on the class path; touches no Curator class unless Curator
 * is there.
 */
final class LeaderOnlyMethodsCheck implements SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(LeaderOnlyMethodsCheck.class);

	private static final String CURATOR_CLASS = "org.apache.curator.framework.CuratorFramework";

	private static final String ADVISOR_CLASS = "io.zklock.interceptor.LeaderOnlyAdvisor";

	private static final int NAMED_METHODS = 5;

	private final ConfigurableListableBeanFactory beanFactory;

	private final Environment environment;

	LeaderOnlyMethodsCheck(ConfigurableListableBeanFactory beanFactory, Environment environment) {
		this.beanFactory = beanFactory;
		this.environment = environment;
	}

	@Override
	public void afterSingletonsInstantiated() {
		List<LeaderOnlyBean> beans = scan();
		if (beans.isEmpty()) {
			return;
		}
		Set<Method> methods = new LinkedHashSet<>();
		beans.forEach((bean) -> methods.addAll(bean.methods()));
		if (!this.environment.getProperty("zklock.enabled", Boolean.class, true)) {
			logger.info("zklock.enabled=false: " + count(methods) + " run on every instance, without a term ("
					+ name(methods) + ").");
			return;
		}
		ClassLoader classLoader = this.beanFactory.getBeanClassLoader();
		if (!ClassUtils.isPresent(CURATOR_CLASS, classLoader)) {
			throw new ZkLockStartupException("zklock found " + count(methods) + " (" + name(methods)
					+ "), but Curator (org.apache.curator:curator-recipes) is not on the class path, so zklock has no "
					+ "leader election and these methods would run on every instance.",
					"Depend on io.zklock:zklock-spring-boot-starter, or add org.apache.curator:curator-recipes. To run "
							+ "these methods on every instance on purpose, set zklock.enabled=false.",
					null);
		}
		Class<?> advisor = ClassUtils.resolveClassName(ADVISOR_CLASS, classLoader);
		if (this.beanFactory.getBeanNamesForType(advisor, true, false).length == 0) {
			String off = this.environment.getProperty("zklock.leadership.enabled", Boolean.class, true) ? ""
					: " (zklock.leadership.enabled=false)";
			throw new ZkLockStartupException("zklock found " + count(methods) + " (" + name(methods)
					+ "), but no LeaderOnlyAdvisor bean to intercept them: zklock's leadership auto-configuration "
					+ "(io.zklock.autoconfigure.leadership.LeadershipAutoConfiguration) did not run" + off
					+ ", so these methods would run on every instance.",
					"Remove zklock.leadership.enabled=false, or LeadershipAutoConfiguration from the excluded "
							+ "auto-configurations; or remove @LeaderOnly from methods that may run on every instance.",
					null);
		}
		List<String> problems = new ArrayList<>();
		for (LeaderOnlyBean bean : beans) {
			if (bean.instance() != null) {
				inspect(bean, advisor, problems);
			}
		}
		if (!problems.isEmpty()) {
			throw new ZkLockStartupException("zklock cannot intercept these @LeaderOnly methods, so they would run on "
					+ "every instance, not only on the leader: " + String.join("; ", problems) + ".",
					"Make @LeaderOnly methods public (or protected or package-private), neither static nor final, on "
							+ "beans Spring creates as ordinary beans, in a class that is not final: a bean that a "
							+ "BeanPostProcessor or BeanFactoryPostProcessor needs is created before proxies exist "
							+ "(inject it there lazily, for example through ObjectProvider). Calls from the same object "
							+ "bypass the proxy too (self-invocation).",
					null);
		}
	}

	private static void inspect(LeaderOnlyBean bean, Class<?> advisor, List<String> problems) {
		Object instance = bean.instance();
		if (!(instance instanceof Advised advised) || Arrays.stream(advised.getAdvisors()).noneMatch(advisor::isInstance)) {
			problems.add("bean '" + bean.beanName() + "' (" + bean.type().getName()
					+ ") is not a proxy with zklock's @LeaderOnly advisor, so none of its calls is intercepted: "
					+ bean.methods().stream().map(LockedMethods::describe).collect(Collectors.joining(", ")));
			return;
		}
		for (Method method : bean.methods()) {
			int modifiers = method.getModifiers();
			String name = LockedMethods.describe(method);
			if (Modifier.isStatic(modifiers)) {
				problems.add(name + " is static, and a proxy only intercepts calls on the bean");
			}
			else if (Modifier.isPrivate(modifiers)) {
				problems.add(name + " is private, and a proxy cannot override it");
			}
			else if (Modifier.isFinal(modifiers) && AopUtils.isCglibProxy(instance)) {
				problems.add(name + " is final, and a class-based proxy cannot override it");
			}
		}
	}

	/** The beans with {@code @LeaderOnly} methods, singletons as created, others by their predicted type. */
	private List<LeaderOnlyBean> scan() {
		List<LeaderOnlyBean> beans = new ArrayList<>();
		Map<Class<?>, Set<Method>> byClass = new HashMap<>();
		for (Iterator<String> names = this.beanFactory.getBeanNamesIterator(); names.hasNext();) {
			String name = names.next();
			if (this.beanFactory.containsBeanDefinition(name)
					&& this.beanFactory.getBeanDefinition(name).getRole() == BeanDefinition.ROLE_INFRASTRUCTURE) {
				continue;
			}
			Object instance = this.beanFactory.containsSingleton(name) ? this.beanFactory.getSingleton(name) : null;
			if (instance instanceof FactoryBean<?> || (instance != null && instance.equals(null))) {
				instance = null;
			}
			Class<?> type = (instance != null) ? AopUtils.getTargetClass(instance) : this.beanFactory.getType(name, false);
			if (type == null) {
				continue;
			}
			type = ClassUtils.getUserClass(type);
			Set<Method> methods = byClass.computeIfAbsent(type, (key) -> LeaderOnlyMethods.of(key).keySet());
			if (!methods.isEmpty()) {
				beans.add(new LeaderOnlyBean(name, instance, type, methods));
			}
		}
		return beans;
	}

	static String count(Set<Method> methods) {
		return methods.size() + " @LeaderOnly method" + ((methods.size() != 1) ? "s" : "");
	}

	static String name(Set<Method> methods) {
		String named = methods.stream().limit(NAMED_METHODS).map(LockedMethods::describe).collect(Collectors.joining(", "));
		return (methods.size() > NAMED_METHODS) ? named + " and " + (methods.size() - NAMED_METHODS) + " more" : named;
	}

	/** A bean with {@code @LeaderOnly} methods; {@code instance} is {@code null} if it was not created. */
	private record LeaderOnlyBean(String beanName, @Nullable Object instance, Class<?> type, Set<Method> methods) {
	}

}
