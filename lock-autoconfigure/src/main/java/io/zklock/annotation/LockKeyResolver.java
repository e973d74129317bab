package io.zklock.annotation;

import java.lang.reflect.Method;
import java.util.Arrays;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.spel.support.StandardEvaluationContext;

/**
 * Resolves the lock path of one call: the annotation's path, plus the key expression's value
 * as one more segment. Expressions see the arguments by name ({@code #order}), as
 * {@code #p0}/{@code #a0}, beans as {@code @name}, and {@code #root.method},
 * {@code #root.args}, {@code #root.target}.
 */
final class LockKeyResolver {

	private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

	private final BeanFactory beanFactory;

	LockKeyResolver(BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	/**
	 * The resolved lock path.
	 * @throws IllegalArgumentException if the key evaluates to {@code null} or a blank string,
	 * or cannot be evaluated; the message names the expression, method and arguments
	 */
	String resolve(LockDefinition definition, Method method, Object[] args, Object target) {
		if (definition.key() == null) {
			return definition.path();
		}
		Object value;
		try {
			StandardEvaluationContext context = new MethodBasedEvaluationContext(
					new RootObject(method, args, target), method, args, this.parameterNames);
			if (this.beanFactory != null) {
				context.setBeanResolver(new BeanFactoryResolver(this.beanFactory));
			}
			value = definition.key().getValue(context);
		}
		catch (EvaluationException ex) {
			throw new IllegalArgumentException(problem(definition, args, "could not be evaluated: " + ex.getMessage()),
					ex);
		}
		String key = (value != null) ? value.toString() : null;
		if (key == null || key.isBlank()) {
			throw new IllegalArgumentException(problem(definition, args, "evaluated to "
					+ ((key == null) ? "null" : "a blank string")
					+ "; a lock key must name the locked resource (otherwise unrelated calls would share one lock)"));
		}
		return definition.path() + "/" + key;
	}

	private static String problem(LockDefinition definition, Object[] args, String what) {
		String annotation = definition.isSemaphore() ? "@DistributedSemaphore" : "@DistributedLock";
		return "Lock key '" + definition.keySource() + "' of " + annotation + " on " + definition.methodDescription()
				+ " " + what + " (arguments " + Arrays.deepToString(args) + ")";
	}

	/**
	 * The root object of key expressions: {@code #root.method}, {@code #root.args},
	 * {@code #root.target}.
	 */
	static final class RootObject {

		private final Method method;

		private final Object[] args;

		private final Object target;

		RootObject(Method method, Object[] args, Object target) {
			this.method = method;
			this.args = args;
			this.target = target;
		}

		public Method getMethod() {
			return this.method;
		}

		public Object[] getArgs() {
			return this.args;
		}

		public Object getTarget() {
			return this.target;
		}

	}

}
