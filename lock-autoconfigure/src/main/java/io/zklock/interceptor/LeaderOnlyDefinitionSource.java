package io.zklock.interceptor;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import io.zklock.annotation.InvalidLockAnnotationException;
import io.zklock.annotation.LeaderOnly;
import io.zklock.internal.LockPaths;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;

/**
 * Finds and validates the {@link LeaderOnly} of a method, once per method. An invalid annotation
 * fails when the bean is proxied, that is at start-up, with a message naming the method, the bad
 * value and the fix.
 */
final class LeaderOnlyDefinitionSource {

	private static final LeaderOnlyDefinition NONE = new LeaderOnlyDefinition("", ReturnKind.SYNC, "");

	private final String rootPath;

	private final Map<Method, LeaderOnlyDefinition> cache = new ConcurrentHashMap<>();

	/**
	 * Creates the source.
	 * @param rootPath the leadership root, for messages
	 */
	LeaderOnlyDefinitionSource(String rootPath) {
		this.rootPath = rootPath;
	}

	/**
	 * The definition of {@code method} (the most specific method of the target class).
	 * @throws InvalidLockAnnotationException if the annotation is invalid
	 */
	Optional<LeaderOnlyDefinition> find(Method method) {
		LeaderOnlyDefinition definition = this.cache.computeIfAbsent(method, this::parse);
		return (definition != NONE) ? Optional.of(definition) : Optional.empty();
	}

	private LeaderOnlyDefinition parse(Method method) {
		LeaderOnly annotation = AnnotatedElementUtils.findMergedAnnotation(method, LeaderOnly.class);
		if (annotation == null) {
			return NONE;
		}
		String description = LockedMethods.describe(method);
		String site = "@LeaderOnly on " + description;
		String role;
		try {
			role = LockPaths.normalize(annotation.value(), this.rootPath);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidLockAnnotationException(description, site + " has an invalid role '" + annotation.value()
					+ "': " + ex.getMessage() + ".",
					"Write the role as a lock path under the leadership root (zklock.leadership.root-path="
							+ this.rootPath + "): '/'-separated non-empty names without '.' or '..', such as "
							+ "'billing-close' or 'billing/close'.",
					ex);
		}
		Class<?> returnType = method.getReturnType();
		if (returnType.isPrimitive() && returnType != void.class) {
			throw new InvalidLockAnnotationException(description, site + " returns " + returnType
					+ ", which has no empty value for the calls it skips while this instance does not lead role '"
					+ role + "'.",
					"Return its wrapper type (" + ClassUtils.resolvePrimitiveIfNecessary(returnType).getSimpleName()
							+ ") or an Optional, so that a skipped call can return null or Optional.empty().",
					null);
		}
		ReturnKind returnKind = ReturnKind.of(method, description);
		String nonNullResult = ReturnKind.nonNullSuspendResult(method);
		if (nonNullResult != null) {
			throw new InvalidLockAnnotationException(description, site + " is a suspend function whose result type ("
					+ nonNullResult + " on the JVM) is not nullable, and a call skipped while this instance does not "
					+ "lead role '" + role + "' returns null.",
					"Declare the result type nullable with '?', or return Unit.", null);
		}
		return new LeaderOnlyDefinition(role, returnKind, description);
	}

}
