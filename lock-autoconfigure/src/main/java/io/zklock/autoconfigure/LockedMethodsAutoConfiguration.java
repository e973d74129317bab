package io.zklock.autoconfigure;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * {@link EnableAutoConfiguration Auto-configuration} that makes zklock fail closed
 * ({@link LockedMethodsCheck}, {@link LeaderOnlyMethodsCheck}): it has no condition, so it runs whenever zklock-spring-boot
 * is on the class path, also when zklock's other auto-configurations back off because
 * Curator is missing, were excluded, or {@code zklock.enabled=false}.
 *
 * @author zklock
 */
@AutoConfiguration
public final class LockedMethodsAutoConfiguration {

	@Bean
	static LockedMethodsCheck zkLockLockedMethodsCheck(ConfigurableListableBeanFactory beanFactory,
			Environment environment) {
		return new LockedMethodsCheck(beanFactory, environment);
	}

	@Bean
	static LeaderOnlyMethodsCheck zkLockLeaderOnlyMethodsCheck(ConfigurableListableBeanFactory beanFactory,
			Environment environment) {
		return new LeaderOnlyMethodsCheck(beanFactory, environment);
	}

}
