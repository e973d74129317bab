package io.zklock.interceptor;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

import io.zklock.internal.LockPaths;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.Expression;
import org.springframework.expression.spel.support.StandardEvaluationContext;
import org.springframework.util.ObjectUtils;

/**
 * Resolves the lock paths of one call: each annotation's path, plus its key expression's
 * value as one more segment (every element, for a collection or array), encoded with
 * {@link LockPaths#encodeSegment(String)} so that a key holding {@code '/'} stays one segment.
 * Expressions see the arguments by name ({@code #order}), as {@code #p0}/{@code #a0}, beans as
 * {@code @name}, and {@code #root.method}, {@code #root.args}, {@code #root.target}.
 */
final class LockKeyResolver {

	private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

	private final @Nullable BeanFactory beanFactory;

	LockKeyResolver(@Nullable BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	/**
	 * The locks of one call, in canonical order (sorted by lock path); a lock path named twice
	 * is locked once, in the stronger mode.
	 * @throws IllegalArgumentException if a key evaluates to {@code null}, a blank string or
	 * an empty collection, or its evaluation throws; the message names the expression, the
	 * method, the arguments and the cause
	 */
	List<ResolvedLock> resolve(LockDefinition definition, Method method, Object[] args, @Nullable Object target) {
		TreeMap<String, ResolvedLock> byPath = new TreeMap<>();
		Evaluation evaluation = new Evaluation(definition, method, args, target);
		for (LockSpec spec : definition.locks()) {
			for (String path : evaluation.paths(spec.path(), true)) {
				byPath.merge(path, new ResolvedLock(path, spec.mode(), spec.path().path()),
						(a, b) -> a.mode().excludesReaders() ? a : b);
			}
		}
		return List.copyOf(byPath.values());
	}

	/**
	 * The semaphore path of one call.
	 * @throws IllegalArgumentException as for locks, and if the key is a collection (a call
	 * takes one permit of one semaphore)
	 */
	String resolve(SemaphoreDefinition definition, Method method, Object[] args, @Nullable Object target) {
		return new Evaluation(definition, method, args, target).paths(definition.path(), false).get(0);
	}

	/** The key evaluation of one call: one evaluation context, made on first use. */
	private final class Evaluation {

		private final GuardDefinition definition;

		private final Method method;

		private final Object[] args;

		private final @Nullable Object target;

		private @Nullable StandardEvaluationContext context;

		Evaluation(GuardDefinition definition, Method method, Object[] args, @Nullable Object target) {
			this.definition = definition;
			this.method = method;
			this.args = args;
			this.target = target;
		}

		List<String> paths(KeyedPath keyed, boolean collectionsAllowed) {
			Expression key = keyed.key();
			if (key == null) {
				return List.of(keyed.path());
			}
			Object value;
			try {
				value = key.getValue(context());
			}
			catch (RuntimeException ex) {
				throw new IllegalArgumentException(problem(keyed, "threw " + ex), ex);
			}
			Collection<?> keys = asCollection(value);
			if (keys != null && !collectionsAllowed) {
				throw new IllegalArgumentException(problem(keyed, "evaluated to a collection " + value
						+ "; a call takes one permit of one semaphore, so the key must be one value"));
			}
			if (keys != null && keys.isEmpty()) {
				throw new IllegalArgumentException(
						problem(keyed, "evaluated to an empty collection; there is nothing to lock"));
			}
			return ((keys != null) ? keys : Collections.singletonList(value)).stream()
				.map((element) -> keyed.path() + "/" + LockPaths.encodeSegment(text(keyed, element, keys != null)))
				.toList();
		}

		private String text(KeyedPath keyed, @Nullable Object element, boolean inCollection) {
			String text = (element != null) ? element.toString() : null;
			if (text == null || text.isBlank()) {
				throw new IllegalArgumentException(problem(keyed, "evaluated to "
						+ ((text == null) ? "null" : "a blank string") + (inCollection ? " for an element" : "")
						+ "; a lock key must name the locked resource (otherwise unrelated calls would share one lock)"));
			}
			return text;
		}

		private StandardEvaluationContext context() {
			if (this.context == null) {
				this.context = new MethodBasedEvaluationContext(new RootObject(this.method, this.args, this.target),
						this.method, this.args, LockKeyResolver.this.parameterNames);
				if (LockKeyResolver.this.beanFactory != null) {
					this.context.setBeanResolver(new BeanFactoryResolver(LockKeyResolver.this.beanFactory));
				}
			}
			return this.context;
		}

		/** The message, its control characters escaped: the arguments and key values are the caller's. */
		private String problem(KeyedPath keyed, String what) {
			return LockPaths.escape("Lock key '" + keyed.keySource() + "' of " + this.definition.annotationName()
					+ " on " + this.definition.methodDescription() + " " + what + " (arguments "
					+ Arrays.deepToString(this.args) + ")");
		}

	}

	private static @Nullable Collection<?> asCollection(@Nullable Object value) {
		if (value instanceof Collection<?> collection) {
			return collection;
		}
		if (value != null && value.getClass().isArray()) {
			return Arrays.asList(ObjectUtils.toObjectArray(value));
		}
		return null;
	}

	/**
	 * The root object of key expressions: {@code #root.method}, {@code #root.args},
	 * {@code #root.target}.
	 */
	static final class RootObject {

		private final Method method;

		private final Object[] args;

		private final @Nullable Object target;

		RootObject(Method method, Object[] args, @Nullable Object target) {
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

		public @Nullable Object getTarget() {
			return this.target;
		}

	}

}
