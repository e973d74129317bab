package io.zklock.annotation;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.TreeMap;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.spel.support.StandardEvaluationContext;
import org.springframework.util.ObjectUtils;

/**
 * Resolves the lock paths of one call: each annotation's path, plus its key expression's
 * value as one more segment (every element, for a collection or array). Expressions see the arguments by name ({@code #order}), as
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
	 * The locks of one call, in canonical order (sorted by lock path); a lock path named twice
	 * is locked once, in the stronger mode.
	 * @throws IllegalArgumentException if a key evaluates to {@code null}, a blank string or
	 * an empty collection, or cannot be evaluated; the message names the expression, method
	 * and arguments
	 */
	List<ResolvedLock> resolve(LockDefinition definition, Method method, Object[] args, Object target) {
		TreeMap<String, ResolvedLock> byPath = new TreeMap<>();
		StandardEvaluationContext context = null;
		for (LockSpec spec : definition.locks()) {
			if (spec.key() == null) {
				add(byPath, new ResolvedLock(spec.path(), spec.mode(), spec.path()));
				continue;
			}
			if (context == null) {
				context = new MethodBasedEvaluationContext(new RootObject(method, args, target), method, args,
						this.parameterNames);
				if (this.beanFactory != null) {
					context.setBeanResolver(new BeanFactoryResolver(this.beanFactory));
				}
			}
			Object value;
			try {
				value = spec.key().getValue(context);
			}
			catch (EvaluationException ex) {
				throw new IllegalArgumentException(
						problem(definition, spec, args, "could not be evaluated: " + ex.getMessage()), ex);
			}
			Collection<?> keys = asCollection(value);
			if (keys != null && keys.isEmpty()) {
				throw new IllegalArgumentException(problem(definition, spec, args,
						"evaluated to an empty collection; there is nothing to lock"));
			}
			for (Object key : (keys != null) ? keys : Collections.singletonList(value)) {
				String text = (key != null) ? key.toString() : null;
				if (text == null || text.isBlank()) {
					throw new IllegalArgumentException(problem(definition, spec, args, "evaluated to "
							+ ((text == null) ? "null" : "a blank string") + ((keys != null) ? " for an element" : "")
							+ "; a lock key must name the locked resource (otherwise unrelated calls would share one lock)"));
				}
				add(byPath, new ResolvedLock(spec.path() + "/" + text, spec.mode(), spec.path()));
			}
		}
		return List.copyOf(byPath.values());
	}

	private static void add(TreeMap<String, ResolvedLock> byPath, ResolvedLock lock) {
		byPath.merge(lock.path(), lock,
				(a, b) -> (a.mode() != null && !a.mode().excludesReaders() && b.mode() != null) ? b : a);
	}

	private static Collection<?> asCollection(Object value) {
		if (value instanceof Collection<?> collection) {
			return collection;
		}
		if (value != null && value.getClass().isArray()) {
			return Arrays.asList(ObjectUtils.toObjectArray(value));
		}
		return null;
	}

	private static String problem(LockDefinition definition, LockSpec spec, Object[] args, String what) {
		return "Lock key '" + spec.keySource() + "' of " + definition.annotationName() + " on "
				+ definition.methodDescription()
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
