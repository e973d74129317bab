package io.zklock.interceptor;

import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import io.zklock.annotation.LeaderOnly;

import org.springframework.core.BridgeMethodResolver;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Finds the methods of a class that carry {@link LeaderOnly}, directly, through a meta-annotation,
 * or on the interface or superclass method they implement (as the advisor finds them), private and
 * static ones included. Needs no Curator class. Thread-safe.
 */
public final class LeaderOnlyMethods {

	private LeaderOnlyMethods() {
	}

	/**
	 * The {@link LeaderOnly} methods of a class, each method of the class, its superclasses and its
	 * interfaces looked at once, mapped to the method of {@code type} that implements it. JDK classes
	 * are skipped.
	 * @param type the class, not a proxy class
	 * @return each annotated method and its role as written, in declaration order
	 */
	public static Map<Method, String> of(Class<?> type) {
		if (!AnnotationUtils.isCandidateClass(type, LeaderOnly.class)) {
			return Map.of();
		}
		Map<Method, String> found = new LinkedHashMap<>();
		Set<Class<?>> types = new LinkedHashSet<>();
		types.add(type);
		types.addAll(ClassUtils.getAllInterfacesForClassAsSet(type));
		for (Class<?> declaring : types) {
			ReflectionUtils.doWithMethods(declaring, (method) -> {
				MergedAnnotation<LeaderOnly> annotation = MergedAnnotations
					.from(method, MergedAnnotations.SearchStrategy.DIRECT)
					.get(LeaderOnly.class);
				if (annotation.isPresent()) {
					Method specific = BridgeMethodResolver
						.findBridgedMethod(ClassUtils.getMostSpecificMethod(method, type));
					found.putIfAbsent(specific, annotation.getString("value"));
				}
			}, ReflectionUtils.USER_DECLARED_METHODS);
		}
		return found;
	}

}
