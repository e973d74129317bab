package io.zklock.interceptor;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.DistributedLocks;
import io.zklock.annotation.DistributedSemaphore;
import io.zklock.annotation.InvalidLockAnnotationException;
import io.zklock.annotation.OnHoldExceeded;
import io.zklock.annotation.OnLockFailure;
import io.zklock.internal.Durations;
import io.zklock.internal.LockPaths;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringValueResolver;

/**
 * Finds and validates the {@link DistributedLock}s or {@link DistributedSemaphore} of a
 * method, once per method. Invalid annotations fail when the bean is proxied, that is at
 * start-up, with a message naming the method, the bad value and the fix.
 */
final class LockDefinitionSource {

	private static final GuardDefinition NONE = new LockDefinition(List.of(), null, OnLockFailure.THROW,
			ReturnKind.SYNC, "");

	private static final DurationAttribute WAIT_TIME = new DurationAttribute("waitTime",
			"Write waitTime as a duration such as '5s', '250ms' or 'PT1M', '0' to try once, or leave it empty for "
					+ "zklock.default-wait-time.",
			"Use '0' to try once, or a positive duration such as '5s'.", "${orders.lock-wait:5s}", true);

	private static final DurationAttribute HOLD_AT_LEAST = new DurationAttribute("holdAtLeast",
			"Write holdAtLeast as a duration such as '30s', '500ms' or 'PT1M', or leave it empty for none.",
			"Use a positive duration such as '30s', or leave it empty for none.", "${jobs.hold-at-least:30s}", true);

	private static final DurationAttribute HOLD_AT_MOST = new DurationAttribute("holdAtMost",
			"Write holdAtMost as a duration such as '10m', '30s' or 'PT1H', or leave it empty for "
					+ "zklock.default-hold-at-most.",
			"Use a positive duration such as '10m', or leave it empty for zklock.default-hold-at-most.",
			"${jobs.hold-at-most:10m}", false);

	private final SpelExpressionParser parser = new SpelExpressionParser();

	private final String rootPath;

	private final @Nullable StringValueResolver placeholders;

	private final Map<Method, GuardDefinition> cache = new ConcurrentHashMap<>();

	/**
	 * Creates the source.
	 * @param rootPath the lock root, for messages
	 * @param placeholders resolves {@code ${…}} in wait times and holds; {@code null} for none
	 */
	LockDefinitionSource(String rootPath, @Nullable StringValueResolver placeholders) {
		this.rootPath = rootPath;
		this.placeholders = placeholders;
	}

	/**
	 * The lock definition of {@code method} (the most specific method of the target class).
	 * @throws InvalidLockAnnotationException if an annotation is invalid
	 */
	Optional<GuardDefinition> find(Method method) {
		GuardDefinition definition = this.cache.computeIfAbsent(method, this::parse);
		return (definition != NONE) ? Optional.of(definition) : Optional.empty();
	}

	private GuardDefinition parse(Method method) {
		Set<DistributedLock> locks = AnnotatedElementUtils.findMergedRepeatableAnnotations(method,
				DistributedLock.class, DistributedLocks.class);
		DistributedSemaphore semaphore = AnnotatedElementUtils.findMergedAnnotation(method,
				DistributedSemaphore.class);
		if (locks.isEmpty() && semaphore == null) {
			return NONE;
		}
		String description = describe(method);
		if (!locks.isEmpty() && semaphore != null) {
			throw new InvalidLockAnnotationException(description,
					description + " carries both @DistributedLock and @DistributedSemaphore.",
					"Keep one of them: @DistributedLock for mutual exclusion (or read/write), "
							+ "@DistributedSemaphore to let several calls run at once.",
					null);
		}
		ReturnKind returnKind = ReturnKind.of(method, description);
		if (semaphore != null) {
			Site at = new Site("@DistributedSemaphore", description);
			if (semaphore.permits() < 1) {
				throw at.invalid("has permits = " + semaphore.permits() + ".",
						"Set permits to 1 or more: the number of calls that may run at once for one path.", null);
			}
			checkSkip(semaphore.onFailure(), method, at);
			KeyedPath path = new KeyedPath(parsePath(semaphore.path(), at), parseKey(semaphore.key(), method, at),
					semaphore.key());
			return new SemaphoreDefinition(path, semaphore.permits(), parseDuration(WAIT_TIME, semaphore.waitTime(), at),
					semaphore.onFailure(), returnKind, description);
		}
		Site at = new Site("@DistributedLock", description);
		List<LockSpec> specs = new ArrayList<>();
		Duration wait = null;
		Set<OnLockFailure> onFailure = locks.stream().map(DistributedLock::onFailure).collect(Collectors.toSet());
		if (onFailure.size() > 1) {
			throw new InvalidLockAnnotationException(description, "The @DistributedLock annotations on "
					+ description + " disagree on onFailure " + new TreeSet<>(onFailure) + ".",
					"Give them one onFailure: they are taken together, all or nothing.", null);
		}
		for (DistributedLock lock : locks) {
			specs.add(new LockSpec(new KeyedPath(parsePath(lock.path(), at), parseKey(lock.key(), method, at), lock.key()),
					lock.mode()));
			Duration lockWait = parseDuration(WAIT_TIME, lock.waitTime(), at);
			if (lockWait != null && (wait == null || lockWait.compareTo(wait) > 0)) {
				wait = lockWait;
			}
		}
		OnLockFailure policy = onFailure.iterator().next();
		checkSkip(policy, method, at);
		Duration holdAtLeast = parseHoldAtLeast(locks, at);
		Duration holdAtMost = parseHoldAtMost(locks, holdAtLeast, at);
		return new LockDefinition(List.copyOf(specs), wait, policy, returnKind, description, holdAtLeast, holdAtMost,
				parseOnHoldExceeded(locks, description));
	}

	/** The shortest {@code holdAtMost} of the annotations; {@code null} for none. */
	private @Nullable Duration parseHoldAtMost(Set<DistributedLock> locks, Duration holdAtLeast, Site at) {
		Duration shortest = null;
		for (DistributedLock lock : locks) {
			Duration bound = parseDuration(HOLD_AT_MOST, lock.holdAtMost(), at);
			if (bound != null && bound.compareTo(holdAtLeast) < 0) {
				throw at.invalid("has a holdAtMost '" + lock.holdAtMost() + "' shorter than its holdAtLeast ("
						+ Durations.format(holdAtLeast) + "): every call would pass it.",
						"Make holdAtMost longer than holdAtLeast, or remove one of them.", null);
			}
			if (bound != null && (shortest == null || bound.compareTo(shortest) < 0)) {
				shortest = bound;
			}
		}
		return shortest;
	}

	/** The one {@code onHoldExceeded} the annotations set, or {@link OnHoldExceeded#DEFAULT}. */
	private static OnHoldExceeded parseOnHoldExceeded(Set<DistributedLock> locks, String description) {
		Set<OnHoldExceeded> set = locks.stream()
			.map(DistributedLock::onHoldExceeded)
			.filter((policy) -> policy != OnHoldExceeded.DEFAULT)
			.collect(Collectors.toCollection(TreeSet::new));
		if (set.size() > 1) {
			throw new InvalidLockAnnotationException(description, "The @DistributedLock annotations on " + description
					+ " disagree on onHoldExceeded " + set + ".",
					"Give them one onHoldExceeded (or set it on one only): their locks are held together.", null);
		}
		return set.isEmpty() ? OnHoldExceeded.DEFAULT : set.iterator().next();
	}

	/** The longest {@code holdAtLeast} of the annotations; zero for none. */
	private Duration parseHoldAtLeast(Set<DistributedLock> locks, Site at) {
		Duration longest = Duration.ZERO;
		for (DistributedLock lock : locks) {
			Duration hold = parseDuration(HOLD_AT_LEAST, lock.holdAtLeast(), at);
			if (hold != null && hold.compareTo(longest) > 0) {
				longest = hold;
			}
		}
		return longest;
	}

	private static void checkSkip(OnLockFailure onFailure, Method method, Site at) {
		Class<?> returnType = method.getReturnType();
		if (onFailure == OnLockFailure.SKIP && returnType.isPrimitive() && returnType != void.class) {
			throw at.invalid("has onFailure = SKIP but returns " + returnType + ", which has no empty value.",
					"Return its wrapper type (" + ClassUtils.resolvePrimitiveIfNecessary(returnType).getSimpleName()
							+ ") or an Optional, so that a skipped call can return null or Optional.empty(), "
							+ "or use onFailure = THROW.",
					null);
		}
		String nonNullResult = (onFailure == OnLockFailure.SKIP) ? ReturnKind.nonNullSuspendResult(method) : null;
		if (nonNullResult != null) {
			throw at.invalid("has onFailure = SKIP but is a suspend function whose result type (" + nonNullResult
					+ " on the JVM) is not nullable, and a skipped call returns null.",
					"Declare the result type nullable with '?', return Unit, or use onFailure = THROW.", null);
		}
	}

	private String parsePath(String path, Site at) {
		try {
			return LockPaths.normalize(path, this.rootPath);
		}
		catch (IllegalArgumentException ex) {
			throw at.invalid("has an invalid path '" + path + "': " + ex.getMessage() + ".",
					"Write path as '/'-separated non-empty names without '.' or '..', such as 'orders' or "
							+ "'billing/invoices'; put the variable part in key.",
					ex);
		}
	}

	private @Nullable Expression parseKey(String key, Method method, Site at) {
		if (key.isBlank()) {
			return null;
		}
		try {
			Expression expression = this.parser.parseExpression(key);
			KeyVariables.check(expression, key, method, at.annotation() + " on " + at.methodDescription(),
					at.methodDescription());
			return expression;
		}
		catch (ParseException ex) {
			throw at.invalid("has an invalid key expression '" + key + "': " + ex.getMessage() + ".",
					"Write key as SpEL over the method's arguments, such as '#order.id', '#p0' or "
							+ "'#tenant + \':\' + #id'.",
					ex);
		}
	}

	/**
	 * A duration attribute as written, placeholders resolved.
	 * @return the duration, or {@code null} if the attribute is empty
	 */
	private @Nullable Duration parseDuration(DurationAttribute attribute, String written, Site at) {
		String text = written.trim();
		if (this.placeholders != null && text.contains("${")) {
			try {
				text = this.placeholders.resolveStringValue(text);
			}
			catch (IllegalArgumentException ex) {
				throw at.invalid("has a " + attribute.name() + " '" + written
						+ "' whose placeholder cannot be resolved: " + ex.getMessage() + ".",
						"Define the property, or give the placeholder a default such as '"
								+ attribute.placeholderExample() + "'.",
						ex);
			}
		}
		if (text == null || text.isBlank()) {
			return null;
		}
		Duration duration;
		try {
			duration = DurationStyle.detectAndParse(text.trim());
		}
		catch (IllegalArgumentException ex) {
			throw at.invalid("has an invalid " + attribute.name() + " '" + written + "'" + resolvedTo(written, text)
					+ ": it is not a duration.", attribute.invalidAction(), ex);
		}
		if (duration.isNegative()) {
			throw at.invalid("has a negative " + attribute.name() + " '" + written + "'" + resolvedTo(written, text)
					+ ".", attribute.negativeAction(), null);
		}
		if (duration.isZero() && !attribute.zeroAllowed()) {
			throw at.invalid("has a zero " + attribute.name() + " '" + written + "'" + resolvedTo(written, text)
					+ ": no call could keep within it.", attribute.negativeAction(), null);
		}
		return duration;
	}

	private static String resolvedTo(String waitTime, String resolved) {
		return waitTime.trim().equals(resolved.trim()) ? "" : " (resolved to '" + resolved.trim() + "')";
	}

	static String describe(Method method) {
		return LockedMethods.describe(method);
	}

	/**
	 * A duration attribute of the annotations, with what to write instead of a bad value (the
	 * {@code negativeAction} also for a zero where zero is not allowed).
	 */
	private record DurationAttribute(String name, String invalidAction, String negativeAction,
			String placeholderExample, boolean zeroAllowed) {
	}

	/** Where an annotation sits, for messages: {@code "@DistributedLock on Type.method(Params)"}. */
	private record Site(String annotation, String methodDescription) {

		InvalidLockAnnotationException invalid(String problem, String action, @Nullable Throwable cause) {
			return new InvalidLockAnnotationException(this.methodDescription,
					this.annotation + " on " + this.methodDescription + " " + problem, action, cause);
		}

	}

}
