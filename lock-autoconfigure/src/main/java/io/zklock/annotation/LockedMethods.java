package io.zklock.annotation;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;

import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;

/**
 * Finds the methods of a class that carry {@link DistributedLock} or
 * {@link DistributedSemaphore}, directly, through a meta-annotation, or on the interface or
 * superclass method they implement (as the advisor finds them), private and static ones
 * included; and names methods in messages. Needs no Curator class. Thread-safe.
 */
public final class LockedMethods {

	private LockedMethods() {
	}

	/**
	 * The annotated methods of a class.
	 * @param type the class, not a proxy class
	 * @return each annotated method and its annotation type ({@code DistributedSemaphore} if
	 * it carries a semaphore, else {@code DistributedLock})
	 */
	public static Map<Method, Class<? extends Annotation>> of(Class<?> type) {
		return MethodIntrospector.selectMethods(type, (MethodIntrospector.MetadataLookup<Class<? extends Annotation>>) (
				method) -> {
			if (AnnotatedElementUtils.findMergedAnnotation(method, DistributedSemaphore.class) != null) {
				return DistributedSemaphore.class;
			}
			return AnnotatedElementUtils.findMergedRepeatableAnnotations(method, DistributedLock.class,
					DistributedLocks.class)
				.isEmpty() ? null : DistributedLock.class;
		});
	}

	/**
	 * A method as messages name it.
	 * @param method the method
	 * @return {@code Type.method(ParamTypes)}, with the simple name of the declaring class (its
	 * short name with the enclosing class if it is anonymous)
	 */
	public static String describe(Method method) {
		Class<?> type = method.getDeclaringClass();
		String typeName = type.getSimpleName().isEmpty() ? ClassUtils.getShortName(type) : type.getSimpleName();
		return typeName + "." + method.getName() + "("
				+ Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName).collect(Collectors.joining(", "))
				+ ")";
	}

}
