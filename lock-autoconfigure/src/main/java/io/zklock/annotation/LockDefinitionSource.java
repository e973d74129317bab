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

	private static final LockDefinition NONE = new LockDefinition("", null, "", null, null, "");

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
		DistributedLock annotation = AnnotatedElementUtils.findMergedAnnotation(method, DistributedLock.class);
		if (annotation == null) {
			return NONE;
		}
		String description = describe(method);
		String path;
		try {
			path = LockPaths.normalize(annotation.path(), this.rootPath);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalStateException("@DistributedLock on " + description + " has an invalid path: "
					+ ex.getMessage(), ex);
		}
		Expression key = null;
		if (!annotation.key().isBlank()) {
			try {
				key = this.parser.parseExpression(annotation.key());
			}
			catch (ParseException ex) {
				throw new IllegalStateException("@DistributedLock on " + description + " has an invalid key expression '"
						+ annotation.key() + "': " + ex.getMessage() + "; write SpEL over the arguments, such as "
						+ "'#order.id' or '#p0'", ex);
			}
		}
		return new LockDefinition(path, key, annotation.key(), annotation.mode(),
				parseWait(annotation.waitTime(), description), description);
	}

	private static Duration parseWait(String waitTime, String description) {
		if (waitTime.isBlank()) {
			return null;
		}
		Duration wait;
		try {
			wait = DurationStyle.detectAndParse(waitTime.trim());
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalStateException("@DistributedLock on " + description + " has an invalid waitTime '"
					+ waitTime + "': use a duration such as '5s', '250ms', 'PT1M', or '0' to try once", ex);
		}
		if (wait.isNegative()) {
			throw new IllegalStateException("@DistributedLock on " + description + " has a negative waitTime '"
					+ waitTime + "': use '0' to try once, or a positive duration such as '5s'");
		}
		return wait;
	}

	static String describe(Method method) {
		return method.getDeclaringClass().getSimpleName() + "." + method.getName() + "("
				+ Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName).collect(Collectors.joining(", "))
				+ ")";
	}

}
