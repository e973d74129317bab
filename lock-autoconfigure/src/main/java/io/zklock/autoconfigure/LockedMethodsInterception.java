package io.zklock.autoconfigure;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.zklock.interceptor.DistributedLockAdvisor;
import io.zklock.annotation.DistributedSemaphore;
import io.zklock.interceptor.LockedMethods;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.SemaphoreByCurator;

import org.springframework.aop.framework.Advised;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * The part of {@link LockedMethodsCheck} that needs zklock's lock types, and so Curator:
 * whether the beans that annotated methods need exist, and whether the proxy can intercept
 * each annotated method of the singletons.
 * <ul>
 * <li>No {@link DistributedLockAdvisor}, no single {@link ILockByCurator} for
 * {@code @DistributedLock} methods, or no single {@link SemaphoreByCurator} for
 * {@code @DistributedSemaphore} methods: start-up fails.</li>
 * <li>A private, static, or (under a class-based proxy) final method, or a bean that is not
 * a proxy with zklock's advisor (created before the auto-proxy creator could wrap it, for
 * example as a dependency of a post-processor; or no auto-proxy creator runs): start-up
 * fails, naming each method. No call through the proxy can ever run them under their
 * lock.</li>
 * <li>A method no interface of its bean's JDK proxy declares: one WARN naming them. Callers
 * only see the interfaces, so only a call from the bean itself reaches it, which bypasses
 * every proxy (self-invocation).</li>
 * </ul>
 */
final class LockedMethodsInterception {

	private static final Log logger = LogFactory.getLog(LockedMethodsInterception.class);

	private static final String WITHOUT_LOCKS = " To run them without locks on purpose, set zklock.enabled=false.";

	private final ConfigurableListableBeanFactory beanFactory;

	LockedMethodsInterception(ConfigurableListableBeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	/**
	 * Checks the beans.
	 * @param beans the beans with annotated methods
	 * @throws ZkLockStartupException if a bean they need is missing or a method cannot be
	 * intercepted
	 */
	void check(List<LockedBean> beans) {
		Set<Method> locks = methods(beans, false);
		Set<Method> semaphores = methods(beans, true);
		Set<Method> all = new LinkedHashSet<>(locks);
		all.addAll(semaphores);
		if (this.beanFactory.getBeanNamesForType(DistributedLockAdvisor.class, true, false).length == 0) {
			throw new ZkLockStartupException("zklock found " + LockedMethodsCheck.count(all) + " ("
					+ LockedMethodsCheck.name(all) + "), but no DistributedLockAdvisor bean to intercept them: "
					+ "zklock's auto-configuration (io.zklock.autoconfigure.ZkLockAutoConfiguration) did not run, "
					+ "so these methods would run without locks.",
					"Remove ZkLockAutoConfiguration from the excluded auto-configurations (spring.autoconfigure.exclude "
							+ "or @SpringBootApplication(exclude = ...)), or define a DistributedLockAdvisor bean."
							+ WITHOUT_LOCKS,
					null);
		}
		requireSingle(ILockByCurator.class, locks, "@DistributedLock");
		requireSingle(SemaphoreByCurator.class, semaphores, "@DistributedSemaphore");
		List<String> problems = new ArrayList<>();
		List<String> unreachable = new ArrayList<>();
		for (LockedBean bean : beans) {
			if (bean.instance() != null) {
				inspect(bean, problems, unreachable);
			}
		}
		if (!problems.isEmpty()) {
			throw new ZkLockStartupException("zklock cannot intercept these @DistributedLock/@DistributedSemaphore "
					+ "methods, so they would run without locks: " + String.join("; ", problems) + ".",
					"Make annotated methods public (or protected or package-private), neither static nor final, on "
							+ "beans Spring creates as ordinary beans: a bean that a BeanPostProcessor or "
							+ "BeanFactoryPostProcessor needs is created before proxies exist (inject it there lazily, "
							+ "for example through ObjectProvider), and spring.aop.auto=false turns proxies off. "
							+ "Calls from the same object bypass the proxy too (self-invocation: see docs/usage.md, calls that bypass the proxy).",
					null);
		}
		if (!unreachable.isEmpty()) {
			logger.warn(unreachable.size() + " @DistributedLock/@DistributedSemaphore method"
					+ ((unreachable.size() != 1) ? "s are" : " is")
					+ " declared by no interface of its bean's JDK proxy, so only calls from the bean itself reach "
					+ "it, and they bypass the lock: " + String.join(", ", unreachable) + ". Declare "
					+ ((unreachable.size() != 1) ? "them" : "it")
					+ " on an interface, or use class-based proxies (spring.aop.proxy-target-class=true, the default).");
		}
	}

	private static Set<Method> methods(List<LockedBean> beans, boolean semaphores) {
		Set<Method> methods = new LinkedHashSet<>();
		for (LockedBean bean : beans) {
			bean.methods().forEach((method, annotation) -> {
				if ((annotation == DistributedSemaphore.class) == semaphores) {
					methods.add(method);
				}
			});
		}
		return methods;
	}

	private void requireSingle(Class<?> type, Set<Method> methods, String annotation) {
		if (methods.isEmpty() || this.beanFactory.getBeanProvider(type).getIfUnique() != null) {
			return;
		}
		String[] names = this.beanFactory.getBeanNamesForType(type);
		String found = (names.length == 0) ? "there is no " + type.getSimpleName() + " bean"
				: "there are " + names.length + " " + type.getSimpleName() + " beans and none is @Primary: "
						+ Arrays.stream(names).map((name) -> "'" + name + "'").collect(Collectors.joining(", "));
		throw new ZkLockStartupException("zklock found " + methods.size() + " " + annotation + " method"
				+ ((methods.size() != 1) ? "s" : "") + " (" + LockedMethodsCheck.name(methods) + "), but " + found
				+ ", so they cannot be locked.",
				"Let zklock's auto-configuration define it (remove the bean definition or condition that replaced "
						+ "it), define one yourself, or mark one @Primary." + WITHOUT_LOCKS,
				null);
	}

	private static void inspect(LockedBean bean, List<String> problems, List<String> unreachable) {
		Object instance = bean.instance();
		if (!(instance instanceof Advised advised)
				|| Arrays.stream(advised.getAdvisors()).noneMatch(DistributedLockAdvisor.class::isInstance)) {
			problems.add("bean '" + bean.beanName() + "' (" + bean.type().getName()
					+ ") is not a proxy with zklock's advisor, so none of its calls is intercepted: "
					+ bean.methods().keySet().stream().map(LockedMethods::describe).collect(Collectors.joining(", ")));
			return;
		}
		for (Map.Entry<Method, Class<? extends Annotation>> entry : bean.methods().entrySet()) {
			Method method = entry.getKey();
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
			else if (AopUtils.isJdkDynamicProxy(instance) && Arrays.stream(advised.getProxiedInterfaces())
				.noneMatch((type) -> ClassUtils.hasMethod(type, method.getName(), method.getParameterTypes()))) {
				unreachable.add(name + " (bean '" + bean.beanName() + "')");
			}
		}
	}

}
