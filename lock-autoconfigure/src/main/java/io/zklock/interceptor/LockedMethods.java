package io.zklock.interceptor;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.DistributedLocks;
import io.zklock.annotation.DistributedSemaphore;

import org.springframework.core.BridgeMethodResolver;
import org.springframework.core.KotlinDetector;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Finds the methods of a class that carry {@link DistributedLock} or
 * {@link DistributedSemaphore}, directly, through a meta-annotation, or on the interface or
 * superclass method they implement (as the advisor finds them), private and static ones
 * included; and names methods in messages. Needs no Curator class. Thread-safe.
 */
public final class LockedMethods {

	private static final List<Class<? extends Annotation>> ANNOTATIONS = List.of(DistributedLock.class,
			DistributedLocks.class, DistributedSemaphore.class);

	private LockedMethods() {
	}

	/**
	 * The annotated methods of a class. Each method of the class, its superclasses and its
	 * interfaces is looked at once, for annotations present on it directly or through a
	 * meta-annotation, and what is found is mapped to the method of {@code type} that
	 * implements it: cheaper than a hierarchy search per method, which matters because every
	 * bean class of the application is scanned at start-up. JDK classes are skipped.
	 * @param type the class, not a proxy class
	 * @return each annotated method and its annotation type ({@code DistributedSemaphore} if
	 * it carries a semaphore, else {@code DistributedLock}), in declaration order
	 */
	public static Map<Method, Class<? extends Annotation>> of(Class<?> type) {
		if (!AnnotationUtils.isCandidateClass(type, ANNOTATIONS)) {
			return Map.of();
		}
		Map<Method, Class<? extends Annotation>> found = new LinkedHashMap<>();
		Set<Class<?>> types = new LinkedHashSet<>();
		types.add(type);
		types.addAll(ClassUtils.getAllInterfacesForClassAsSet(type));
		for (Class<?> declaring : types) {
			ReflectionUtils.doWithMethods(declaring, (method) -> {
				Class<? extends Annotation> annotation = annotationOn(method);
				if (annotation != null) {
					Method specific = BridgeMethodResolver
						.findBridgedMethod(ClassUtils.getMostSpecificMethod(method, type));
					found.putIfAbsent(specific, annotation);
				}
			}, ReflectionUtils.USER_DECLARED_METHODS);
		}
		return found;
	}

	private static @Nullable Class<? extends Annotation> annotationOn(Method method) {
		MergedAnnotations annotations = MergedAnnotations.from(method, MergedAnnotations.SearchStrategy.DIRECT);
		if (annotations.isPresent(DistributedSemaphore.class)) {
			return DistributedSemaphore.class;
		}
		return (annotations.isPresent(DistributedLock.class) || annotations.isPresent(DistributedLocks.class))
				? DistributedLock.class : null;
	}

	/**
	 * A method as messages name it.
	 * @param method the method
	 * @return {@code Type.method(ParamTypes)}, with the simple name of the declaring class (its
	 * short name with the enclosing class if it is anonymous); a Kotlin {@code suspend} function
	 * with the parameters written in Kotlin, without the compiler's {@code Continuation}
	 */
	public static String describe(Method method) {
		Class<?> type = method.getDeclaringClass();
		String typeName = type.getSimpleName().isEmpty() ? ClassUtils.getShortName(type) : type.getSimpleName();
		Class<?>[] parameters = method.getParameterTypes();
		// a suspend function as written in Kotlin: without the Continuation the compiler adds
		int shown = KotlinDetector.isSuspendingFunction(method) ? parameters.length - 1 : parameters.length;
		return typeName + "." + method.getName() + "("
				+ Arrays.stream(parameters, 0, shown).map(Class::getSimpleName).collect(Collectors.joining(", ")) + ")";
	}

}
