package io.zklock.interceptor;

import java.lang.reflect.Method;

import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.BridgeMethodResolver;

/**
 * The method whose annotations decide a call: the most specific implementation of the invoked
 * method on the target's class (past a CGLIB proxy's subclass), with a bridge method resolved to
 * the method it bridges, so that an annotation on an implementation or a generic override is
 * found as the pointcut found it. The pointcuts and interceptors of this package all ask here.
 * Stateless and thread-safe.
 */
final class SpecificMethods {

	private SpecificMethods() {
	}

	/** The most specific method for {@code method} called on an instance of {@code targetClass}. */
	static Method of(Method method, Class<?> targetClass) {
		return BridgeMethodResolver.findBridgedMethod(AopUtils.getMostSpecificMethod(method, targetClass));
	}

	/**
	 * The most specific method of an intercepted call: on the target's class, or on the invoked
	 * method's declaring class when the invocation has no target.
	 */
	static Method of(MethodInvocation invocation) {
		Object target = invocation.getThis();
		Class<?> targetClass = (target != null) ? AopUtils.getTargetClass(target)
				: invocation.getMethod().getDeclaringClass();
		return of(invocation.getMethod(), targetClass);
	}

}
