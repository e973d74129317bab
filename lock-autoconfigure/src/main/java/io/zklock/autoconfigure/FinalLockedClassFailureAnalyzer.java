package io.zklock.autoconfigure;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import io.zklock.interceptor.LeaderOnlyMethods;
import io.zklock.interceptor.LockedMethods;

import org.springframework.aop.framework.AopConfigException;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.util.ClassUtils;

/**
 * Explains a start-up failure of a bean whose class is {@code final} and has
 * {@code @DistributedLock}, {@code @DistributedSemaphore} or {@code @LeaderOnly} methods: Spring Boot proxies
 * classes by subclassing them, which a final class forbids, so creating the bean fails with
 * Spring's {@link AopConfigException} ("Could not generate CGLIB subclass"). Kotlin classes
 * are final unless declared {@code open}. Other proxy failures are left to Spring Boot.
 */
class FinalLockedClassFailureAnalyzer extends AbstractFailureAnalyzer<AopConfigException> implements Ordered {

	private final @Nullable BeanFactory beanFactory;

	FinalLockedClassFailureAnalyzer(@Nullable BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure, AopConfigException cause) {
		String beanName = beanName(rootFailure, cause);
		if (beanName == null || this.beanFactory == null) {
			return null;
		}
		Class<?> type;
		try {
			type = this.beanFactory.getType(beanName, false);
		}
		catch (RuntimeException ex) {
			return null;
		}
		if (type == null) {
			return null;
		}
		type = ClassUtils.getUserClass(type);
		if (!Modifier.isFinal(type.getModifiers())) {
			return null;
		}
		Set<Method> methods = LockedMethods.of(type).keySet();
		Set<Method> leaderOnly = LeaderOnlyMethods.of(type).keySet();
		String annotated;
		if (!methods.isEmpty()) {
			annotated = LockedMethodsCheck.count(methods) + " (" + LockedMethodsCheck.name(methods)
					+ "): its class " + type.getName() + " is final, and the class-based proxy that runs them under "
					+ "their locks subclasses it.";
		}
		else if (!leaderOnly.isEmpty()) {
			annotated = LeaderOnlyMethodsCheck.count(leaderOnly) + " (" + LeaderOnlyMethodsCheck.name(leaderOnly)
					+ "): its class " + type.getName() + " is final, and the class-based proxy that runs them only "
					+ "on the leader of their role subclasses it.";
		}
		else {
			return null;
		}
		return new FailureAnalysis("Bean '" + beanName + "' cannot be proxied for its " + annotated,
				"Make the class non-final (in Kotlin: open, or the kotlin-spring compiler plugin), or declare the "
						+ "annotated methods on an interface the class implements and use interface-based proxies "
						+ "(spring.aop.proxy-target-class=false).",
				cause);
	}

	/** The bean whose creation failed with the exception: the innermost one above it. */
	private static @Nullable String beanName(Throwable rootFailure, AopConfigException cause) {
		String beanName = null;
		for (Throwable failure = rootFailure; failure != null && failure != cause; failure = failure.getCause()) {
			if (failure instanceof BeanCreationException creation && creation.getBeanName() != null) {
				beanName = creation.getBeanName();
			}
		}
		return beanName;
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
