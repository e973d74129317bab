package io.zklock.autoconfigure.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.curator.framework.CuratorFramework;

import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.lock.LockEngine;
import io.zklock.metrics.HeldLocksMeterBinder;
import io.zklock.metrics.LockMetricsListener;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.util.function.SingletonSupplier;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for zklock's Micrometer meters:
 * {@link LockMetricsListener} (acquire and hold timers, lost and skipped counters) and
 * {@link HeldLocksMeterBinder} (held-locks gauge). The meters that alerts watch are registered
 * at zero for every annotated lock once the application's singletons exist
 * ({@code AnnotatedLockMeters}). Needs {@code micrometer-core} and a
 * {@link MeterRegistry} bean. The same class serves Boot 3.5 and 4: it uses only Micrometer types,
 * and it is ordered after the registry's auto-configuration of either line by name (a name
 * that is not on the classpath is ignored).
 *
 * @author zklock
 */
@AutoConfiguration(after = ZkLockAutoConfiguration.class,
		afterName = {
				// Boot 4
				"org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
				// Boot 3.5
				"org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
				"org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnClass({ CuratorFramework.class, MeterRegistry.class })
@ConditionalOnBooleanProperty(name = "zklock.enabled", matchIfMissing = true)
@ConditionalOnBean({ LockEngine.class, MeterRegistry.class })
public final class ZkLockMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LockMetricsListener zkLockMetricsListener(ObjectProvider<MeterRegistry> meterRegistry) {
		// looked up at the first event: the engine collects its listeners early
		return new LockMetricsListener(SingletonSupplier.of(meterRegistry::getIfUnique));
	}

	@Bean
	AnnotatedLockMeters zkLockAnnotatedLockMeters(ConfigurableListableBeanFactory beanFactory,
			LockMetricsListener listener, LockEngine engine) {
		return new AnnotatedLockMeters(beanFactory, listener, engine.getRootPath());
	}

	@Bean
	@ConditionalOnMissingBean
	HeldLocksMeterBinder zkLockHeldLocksMeterBinder(LockEngine engine) {
		return new HeldLocksMeterBinder(engine);
	}

}
