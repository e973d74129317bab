package io.zklock.autoconfigure.metrics;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.DistributedLocks;
import io.zklock.annotation.DistributedSemaphore;
import io.zklock.interceptor.LockedMethods;
import io.zklock.internal.LockPaths;
import io.zklock.lock.LockMode;
import io.zklock.metrics.LockMetricsListener;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;

/**
 * Registers at zero, once the application's singletons exist, the meters of every lock that an
 * annotated method of a bean takes ({@link LockMetricsListener#registerLock}), so that an alert on
 * their increase sees the first event. Lock paths are named as the interceptor names them: the
 * annotation's path, normalised against the lock root, without its key.
 */
final class AnnotatedLockMeters implements SmartInitializingSingleton {

	private final ConfigurableListableBeanFactory beanFactory;

	private final LockMetricsListener listener;

	private final String rootPath;

	AnnotatedLockMeters(ConfigurableListableBeanFactory beanFactory, LockMetricsListener listener, String rootPath) {
		this.beanFactory = beanFactory;
		this.listener = listener;
		this.rootPath = rootPath;
	}

	@Override
	public void afterSingletonsInstantiated() {
		for (String name : this.beanFactory.getBeanDefinitionNames()) {
			if (this.beanFactory.getBeanDefinition(name).getRole() == BeanDefinition.ROLE_INFRASTRUCTURE) {
				continue;
			}
			Class<?> type = this.beanFactory.getType(name, false);
			if (type != null) {
				LockedMethods.of(ClassUtils.getUserClass(type)).keySet().forEach(this::register);
			}
		}
	}

	private void register(Method method) {
		for (DistributedLock lock : AnnotatedElementUtils.findMergedRepeatableAnnotations(method, DistributedLock.class,
				DistributedLocks.class)) {
			register(lock.path(), lock.mode());
		}
		DistributedSemaphore semaphore = AnnotatedElementUtils.findMergedAnnotation(method, DistributedSemaphore.class);
		if (semaphore != null) {
			register(semaphore.path(), null);
		}
	}

	private void register(String path, @Nullable LockMode mode) {
		try {
			this.listener.registerLock(LockPaths.normalize(path, this.rootPath), mode);
		}
		catch (IllegalArgumentException ex) {
			// an invalid path fails its bean's proxying with its own message; nothing to count
		}
	}

}
