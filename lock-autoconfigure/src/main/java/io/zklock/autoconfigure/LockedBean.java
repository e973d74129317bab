package io.zklock.autoconfigure;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.zklock.interceptor.LockedMethods;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.FactoryBean;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * A bean whose class has {@code @DistributedLock} or {@code @DistributedSemaphore} methods.
 *
 * @param beanName the bean's name
 * @param instance the singleton as created (a proxy if it was proxied), or {@code null} for a
 * bean not created yet or not a singleton (lazy, prototype, scoped, a factory bean's product)
 * @param type the bean's class, not a proxy class
 * @param methods its annotated methods, with their annotation type
 */
record LockedBean(String beanName, @Nullable Object instance, Class<?> type,
		Map<Method, Class<? extends Annotation>> methods) {

	/**
	 * Finds the beans with annotated methods. Singletons are inspected as created; other beans
	 * by the type their definition predicts, without creating them. Infrastructure beans are
	 * skipped.
	 * @param beanFactory the bean factory, after its singletons were created
	 * @return the beans with annotated methods
	 */
	static List<LockedBean> scan(ConfigurableListableBeanFactory beanFactory) {
		List<LockedBean> beans = new ArrayList<>();
		Map<Class<?>, Map<Method, Class<? extends Annotation>>> byClass = new HashMap<>();
		for (Iterator<String> names = beanFactory.getBeanNamesIterator(); names.hasNext();) {
			String name = names.next();
			if (beanFactory.containsBeanDefinition(name)
					&& beanFactory.getBeanDefinition(name).getRole() == BeanDefinition.ROLE_INFRASTRUCTURE) {
				continue;
			}
			Object instance = beanFactory.containsSingleton(name) ? beanFactory.getSingleton(name) : null;
			// a factory bean's product is not inspected; a @Bean method that returned null
			// leaves Spring's NullBean, which equals null
			if (instance instanceof FactoryBean<?> || (instance != null && instance.equals(null))) {
				instance = null;
			}
			Class<?> type = (instance != null) ? AopUtils.getTargetClass(instance) : beanFactory.getType(name, false);
			if (type == null) {
				continue;
			}
			type = ClassUtils.getUserClass(type);
			Map<Method, Class<? extends Annotation>> methods = byClass.computeIfAbsent(type, LockedMethods::of);
			if (!methods.isEmpty()) {
				beans.add(new LockedBean(name, instance, type, methods));
			}
		}
		return beans;
	}

}
