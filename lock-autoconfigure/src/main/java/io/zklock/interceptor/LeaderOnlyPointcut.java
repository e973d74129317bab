package io.zklock.interceptor;

import java.lang.reflect.Method;

import io.zklock.annotation.LeaderOnly;

import org.springframework.aop.support.StaticMethodMatcherPointcut;

/**
 * Matches methods that carry {@link LeaderOnly}, directly or through a meta-annotation, on the
 * target class or on an interface or superclass method it implements. Matching parses the
 * annotation, so an invalid one fails when the bean is proxied.
 */
final class LeaderOnlyPointcut extends StaticMethodMatcherPointcut {

	private final LeaderOnlyDefinitionSource definitions;

	LeaderOnlyPointcut(LeaderOnlyDefinitionSource definitions) {
		this.definitions = definitions;
	}

	@Override
	public boolean matches(Method method, Class<?> targetClass) {
		Method specific = SpecificMethods.of(method, targetClass);
		return this.definitions.find(specific).isPresent();
	}

}
