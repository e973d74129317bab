package io.zklock.annotation;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import io.zklock.lock.LockPaths;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.standard.SpelExpressionParser;

/**
 * Finds and validates the {@link DistributedLock} of a method, once per method. Invalid
 * annotations fail when the bean is proxied, that is at start-up, with a message naming the
 * method, the bad value and the fix.
 */
final class LockDefinitionSource {

	private static final LockDefinition NONE = new LockDefinition("", null, "", null, null, "", 0);

	private final SpelExpressionParser parser = new SpelExpressionParser();

	private final String rootPath;

	private final Map<Method, LockDefinition> cache = new ConcurrentHashMap<>();

	LockDefinitionSource(String rootPath) {
		this.rootPath = rootPath;
	}

	/**
	 * The lock definition of {@code method} (the most specific method of the target class).
	 * @throws IllegalStateException if the annotation is invalid
	 */
	Optional<LockDefinition> find(Method method) {
		LockDefinition definition = this.cache.computeIfAbsent(method, this::parse);
		return (definition != NONE) ? Optional.of(definition) : Optional.empty();
	}

	private LockDefinition parse(Method method) {
		DistributedLock lock = AnnotatedElementUtils.findMergedAnnotation(method, DistributedLock.class);
		DistributedSemaphore semaphore = AnnotatedElementUtils.findMergedAnnotation(method,
				DistributedSemaphore.class);
		if (lock == null && semaphore == null) {
			return NONE;
		}
		String description = describe(method);
		if (lock != null && semaphore != null) {
			throw new IllegalStateException(description + " carries both @DistributedLock and @DistributedSemaphore;"
					+ " keep one of them");
		}
		if (lock != null) {
			String at = "@DistributedLock on " + description;
			return new LockDefinition(parsePath(lock.path(), at), parseKey(lock.key(), at), lock.key(), lock.mode(),
					parseWait(lock.waitTime(), at), description, 0);
		}
		String at = "@DistributedSemaphore on " + description;
		if (semaphore.permits() < 1) {
			throw new IllegalStateException(at + " has permits = " + semaphore.permits()
					+ ": a semaphore needs at least 1 permit");
		}
		return new LockDefinition(parsePath(semaphore.path(), at), parseKey(semaphore.key(), at), semaphore.key(),
				null, parseWait(semaphore.waitTime(), at), description, semaphore.permits());
	}

	private String parsePath(String path, String at) {
		try {
			return LockPaths.normalize(path, this.rootPath);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalStateException(at + " has an invalid path: " + ex.getMessage(), ex);
		}
	}

	private Expression parseKey(String key, String at) {
		if (key.isBlank()) {
			return null;
		}
		try {
			return this.parser.parseExpression(key);
		}
		catch (ParseException ex) {
			throw new IllegalStateException(at + " has an invalid key expression '" + key + "': " + ex.getMessage()
					+ "; write SpEL over the arguments, such as '#order.id' or '#p0'", ex);
		}
	}

	private static Duration parseWait(String waitTime, String at) {
		if (waitTime.isBlank()) {
			return null;
		}
		Duration wait;
		try {
			wait = DurationStyle.detectAndParse(waitTime.trim());
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalStateException(at + " has an invalid waitTime '" + waitTime
					+ "': use a duration such as '5s', '250ms', 'PT1M', or '0' to try once", ex);
		}
		if (wait.isNegative()) {
			throw new IllegalStateException(at + " has a negative waitTime '" + waitTime
					+ "': use '0' to try once, or a positive duration such as '5s'");
		}
		return wait;
	}

	static String describe(Method method) {
		return method.getDeclaringClass().getSimpleName() + "." + method.getName() + "("
				+ Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName).collect(Collectors.joining(", "))
				+ ")";
	}

}
