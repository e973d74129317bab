package io.zklock.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.SpringBootVersion;
import org.springframework.core.Ordered;
import org.springframework.core.PriorityOrdered;
import org.springframework.util.ClassUtils;

/**
 * Fails start-up on a Spring Boot line that zklock does not support, saying which it supports:
 * {@value #SUPPORTED}. zklock's auto-configurations rely on conditions that older lines lack
 * ({@code @ConditionalOnBooleanProperty} came with Boot 3.5), and an annotation whose type is
 * missing is silently ignored when Spring reads a class's annotations. On Boot 3.4 the embedded
 * ZooKeeper server's auto-configuration then switched on unasked and failed for want of its
 * libraries, an explanation that had nothing to do with the cause. Runs first of zklock's
 * {@link BeanFactoryPostProcessor}s, before any bean is created.
 */
final class BootLineCheck implements BeanFactoryPostProcessor, PriorityOrdered {

	/** The Spring Boot lines zklock runs on. */
	static final String SUPPORTED = "Spring Boot 3.5.x and 4.x";

	/** A condition of Boot 3.5 that zklock's auto-configurations use; absent from older lines. */
	private static final String BOOT_35_CONDITION = "org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty";

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		String version = SpringBootVersion.getVersion();
		boolean hasBoot35Conditions = ClassUtils.isPresent(BOOT_35_CONDITION, BootLineCheck.class.getClassLoader());
		if (!isSupported(version, hasBoot35Conditions)) {
			throw unsupported(version);
		}
	}

	/**
	 * Whether zklock runs on a Spring Boot version.
	 * @param version the version, such as {@code "3.5.8"} or {@code "4.1.1"}; {@code null} if
	 * unknown
	 * @param hasBoot35Conditions whether Boot 3.5's {@code @ConditionalOnBooleanProperty} is
	 * present, which decides an unknown version
	 * @return {@code true} for 3.5.x and 4.x
	 */
	static boolean isSupported(@Nullable String version, boolean hasBoot35Conditions) {
		int[] line = line(version);
		if (line == null) {
			return hasBoot35Conditions;
		}
		return (line[0] == 3 && line[1] >= 5) || line[0] == 4;
	}

	/**
	 * The failure for an unsupported version.
	 * @param version the version found, or {@code null} if unknown
	 * @return the exception, whose description names the version found and the supported lines
	 */
	static ZkLockStartupException unsupported(@Nullable String version) {
		String found = (version != null && !version.isBlank()) ? "Spring Boot " + version
				: "a Spring Boot version older than 3.5 (it has no @ConditionalOnBooleanProperty)";
		return new ZkLockStartupException("zklock supports " + SUPPORTED + ", and this application runs on " + found
				+ ". On another line its auto-configurations cannot be applied as written: Spring ignores the "
				+ "conditions that line lacks, so parts of zklock would switch on unasked and fail for reasons that "
				+ "have nothing to do with the cause.",
				"Move the application to Spring Boot 3.5.x or 4.x (its spring-boot-starter-parent or spring-boot-dependencies "
						+ "version), or use zklock-core, which needs no Spring Boot, without zklock-spring-boot and its "
						+ "starters.",
				null);
	}

	/** The major and minor version, or {@code null} if the version does not start with them. */
	private static int @Nullable [] line(@Nullable String version) {
		if (version == null) {
			return null;
		}
		String[] parts = version.trim().split("[.\\-]", 3);
		if (parts.length < 2) {
			return null;
		}
		try {
			return new int[] { Integer.parseInt(parts[0]), Integer.parseInt(parts[1]) };
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
