package io.zklock.autoconfigure.observation;

import io.micrometer.observation.ObservationRegistry;
import org.apache.curator.framework.CuratorFramework;

import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.lock.LockEngine;
import io.zklock.observation.LockAcquisitionObservationConvention;
import io.zklock.observation.LockObservationListener;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.util.function.SingletonSupplier;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the Micrometer observation of lock
 * acquires ({@link LockObservationListener}). Needs {@code micrometer-observation} and an
 * {@link ObservationRegistry} bean; a {@link LockAcquisitionObservationConvention} bean
 * replaces the default convention. The same class serves Boot 3.5 and 4: it uses only Micrometer
 * types, and it is ordered after the registry's auto-configuration of either line by name.
 *
 * @author zklock
 */
@AutoConfiguration(after = ZkLockAutoConfiguration.class,
		afterName = {
				// Boot 4
				"org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
				// Boot 3.5
				"org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration" })
@ConditionalOnClass({ CuratorFramework.class, ObservationRegistry.class })
@ConditionalOnBooleanProperty(name = "zklock.enabled", matchIfMissing = true)
@ConditionalOnBean({ LockEngine.class, ObservationRegistry.class })
public final class ZkLockObservationAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LockObservationListener zkLockObservationListener(ObjectProvider<ObservationRegistry> observationRegistry,
			ObjectProvider<LockAcquisitionObservationConvention> convention) {
		// looked up at the first acquire: the engine collects its listeners early
		return new LockObservationListener(SingletonSupplier.of(observationRegistry::getIfUnique),
				convention.getIfUnique());
	}

}
