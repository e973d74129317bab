package io.zklock.autoconfigure;

import java.lang.reflect.Method;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.zklock.interceptor.LockedMethods;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Makes zklock fail closed: once the singletons exist, and before the application runs,
 * checks that every {@code @DistributedLock} and {@code @DistributedSemaphore} method of the
 * application's beans will run under its lock.
 * <ul>
 * <li>With {@code zklock.enabled=false} they run without locks, on purpose: one INFO line
 * says how many.</li>
 * <li>Without Curator on the class path, or without zklock's lock beans (the
 * auto-configuration excluded, or a lock bean replaced away), start-up fails naming what is
 * missing.</li>
 * <li>A method the proxy cannot intercept fails start-up, or logs one WARN
 * ({@link LockedMethodsInterception}).</li>
 * </ul>
 * Active whenever zklock-spring-boot is on the class path; touches no Curator class unless
 * Curator is there.
 */
final class LockedMethodsCheck implements SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(LockedMethodsCheck.class);

	private static final String CURATOR_CLASS = "org.apache.curator.framework.CuratorFramework";

	/** How many methods a message names before "and N more". */
	private static final int NAMED_METHODS = 5;

	private final ConfigurableListableBeanFactory beanFactory;

	private final Environment environment;

	LockedMethodsCheck(ConfigurableListableBeanFactory beanFactory, Environment environment) {
		this.beanFactory = beanFactory;
		this.environment = environment;
	}

	@Override
	public void afterSingletonsInstantiated() {
		long start = System.nanoTime();
		List<LockedBean> beans = LockedBean.scan(this.beanFactory);
		if (logger.isDebugEnabled()) {
			logger.debug("Scanned " + this.beanFactory.getBeanDefinitionCount() + " bean definitions for "
					+ "@DistributedLock/@DistributedSemaphore methods in " + (System.nanoTime() - start) / 1_000_000
					+ " ms: " + beans.size() + " beans have some");
		}
		if (beans.isEmpty()) {
			return;
		}
		Set<Method> methods = new LinkedHashSet<>();
		beans.forEach((bean) -> methods.addAll(bean.methods().keySet()));
		if (!this.environment.getProperty("zklock.enabled", Boolean.class, true)) {
			logger.info("zklock.enabled=false: " + count(methods) + " run without locks (" + name(methods) + ").");
			return;
		}
		if (!ClassUtils.isPresent(CURATOR_CLASS, this.beanFactory.getBeanClassLoader())) {
			throw new ZkLockStartupException("zklock found " + count(methods) + " (" + name(methods)
					+ "), but Curator (org.apache.curator:curator-recipes) is not on the class path, so zklock "
					+ "created no lock beans and these methods would run without locks.",
					"Depend on io.zklock:zklock-spring-boot-starter, or add org.apache.curator:curator-recipes "
							+ "(zklock-core brings it unless an <exclusion> removes it). To run these methods without "
							+ "locks on purpose, set zklock.enabled=false.",
					null);
		}
		new LockedMethodsInterception(this.beanFactory).check(beans);
	}

	/**
	 * Counts methods for messages.
	 * @return such as {@code "3 @DistributedLock/@DistributedSemaphore methods"}
	 */
	static String count(Collection<Method> methods) {
		return methods.size() + " @DistributedLock/@DistributedSemaphore method" + ((methods.size() != 1) ? "s" : "");
	}

	/**
	 * Names methods for messages, the first few.
	 * @return such as {@code "OrderService.ship(Order), ReportJob.run()"}
	 */
	static String name(Collection<Method> methods) {
		String named = methods.stream()
			.limit(NAMED_METHODS)
			.map(LockedMethods::describe)
			.collect(Collectors.joining(", "));
		return (methods.size() > NAMED_METHODS) ? named + " and " + (methods.size() - NAMED_METHODS) + " more"
				: named;
	}

}
