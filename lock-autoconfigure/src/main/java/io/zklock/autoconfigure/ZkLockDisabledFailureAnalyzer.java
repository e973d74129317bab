package io.zklock.autoconfigure;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.InjectionPoint;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.UnsatisfiedDependencyException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.MethodParameter;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Explains a missing bean of one of zklock's engine types (its client, engine, lock
 * classes, semaphores) by {@code zklock.enabled=false}, which defines none of them
 * ({@link ZkLockDisabledAutoConfiguration}), instead of Spring's generic "no qualifying bean".
 * Other missing beans, and any while zklock is enabled, are left to Spring Boot.
 */
class ZkLockDisabledFailureAnalyzer extends AbstractFailureAnalyzer<NoSuchBeanDefinitionException>
		implements Ordered {

	/** The beans zklock defines only when enabled, by class name (Curator may be absent). */
	private static final List<String> ENGINE_TYPES = List.of("org.apache.curator.framework.CuratorFramework",
			"io.zklock.lock.LockEngine", "io.zklock.lock.ExclusiveLockByCurator",
			"io.zklock.lock.SharedLockByCurator", "io.zklock.lock.SemaphoreByCurator");

	/** The types an application can inject {@code ILockByCurator} for instead. */
	private static final List<String> LOCK_TYPES = ENGINE_TYPES.subList(1, 4);

	private final @Nullable Environment environment;

	ZkLockDisabledFailureAnalyzer(@Nullable Environment environment) {
		this.environment = environment;
	}

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure, NoSuchBeanDefinitionException cause) {
		Class<?> type = cause.getBeanType();
		if (type == null || !ENGINE_TYPES.contains(type.getName()) || this.environment == null
				|| this.environment.getProperty("zklock.enabled", Boolean.class, true)) {
			return null;
		}
		String origin = ConfiguredProperty.find(this.environment, "zklock.enabled")
			.map(ConfiguredProperty::origin)
			.map((where) -> " from " + where)
			.orElse("");
		String simpleName = ClassUtils.getShortName(type);
		String action = LOCK_TYPES.contains(type.getName())
				? "Inject ILockByCurator instead of " + simpleName + ", or remove zklock.enabled=false."
				: "Inject ObjectProvider<" + simpleName + "> and do without it while zklock is disabled, or remove "
						+ "zklock.enabled=false.";
		return new FailureAnalysis(injectionPoint(rootFailure) + " requires a bean of type " + type.getName()
				+ ", but zklock is disabled (zklock.enabled=false" + origin + "), and then defines no lock engine "
				+ "beans: no CuratorFramework, LockEngine, ExclusiveLockByCurator, SharedLockByCurator or "
				+ "SemaphoreByCurator, only an ILockByCurator that refuses every acquire, saying that zklock is "
				+ "disabled.", action, cause);
	}

	/** The injection point, as Spring Boot's own analysis of a missing bean names it. */
	private static String injectionPoint(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof UnsatisfiedDependencyException unsatisfied
					&& unsatisfied.getInjectionPoint() != null) {
				InjectionPoint point = unsatisfied.getInjectionPoint();
				MethodParameter parameter = point.getMethodParameter();
				if (parameter != null) {
					return "Parameter " + parameter.getParameterIndex() + " of "
							+ ((parameter.getMethod() == null) ? "constructor"
									: "method " + parameter.getMethod().getName())
							+ " in " + parameter.getDeclaringClass().getName();
				}
				if (point.getField() != null) {
					return "Field " + point.getField().getName() + " in " + point.getField().getDeclaringClass().getName();
				}
			}
		}
		return "The application";
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
