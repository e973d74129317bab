package io.zklock.autoconfigure;

import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;

import io.zklock.interceptor.LockReleaseScheduler;
import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockEngine;
import io.zklock.lock.SemaphoreByCurator;
import io.zklock.lock.SharedLockByCurator;
import io.zklock.lock.event.LockListener;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Fallback;
import org.springframework.context.annotation.Primary;
import org.springframework.core.env.Environment;

/**
 * The lock beans. {@link ExclusiveLockByCurator} is primary, so an unqualified
 * {@link ILockByCurator} injection point gets it; it backs off when the application defines
 * any {@link ILockByCurator} of its own (other than a {@link SharedLockByCurator}).
 * {@link SharedLockByCurator} is a fallback candidate for unqualified injection. The client
 * they lock through is chosen by {@link LockClientResolver}; an application's client that is
 * not started when the application starts fails start-up ({@link ApplicationClientCheck}). Lock
 * nodes carry this host, process, {@code spring.application.name} and {@code zklock.instance-id}
 * ({@link LockEngine.Builder#holder(String, String)}), so that a waiter that times out, and an operator, can tell who holds a
 * lock.
 */
@Configuration(proxyBeanMethods = false)
class LockBeansConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LockEngine zkLockEngine(ListableBeanFactory beanFactory, ZkLockProperties properties,
			Environment environment, ObjectProvider<LockListener> listeners) {
		CuratorFramework curatorFramework = LockClientResolver.resolve(beanFactory);
		ZkLockPropertyChecks checks = new ZkLockPropertyChecks(environment);
		LockEngine.Builder builder = LockEngine.builder(curatorFramework)
			.rootPath(properties.getRootPath())
			.holder(environment.getProperty("spring.application.name"), properties.getInstanceId());
		properties.getLocalHandoff().applyTo(builder, checks);
		properties.getLeakDetection().applyTo(builder, checks);
		LockEngine engine;
		try {
			engine = builder.build();
		}
		catch (IllegalArgumentException ex) {
			// "Lock root 'x' is invalid: <rule>": the analysis names the property and value itself
			String message = String.valueOf(ex.getMessage());
			int rule = message.indexOf("is invalid: ");
			throw checks.invalid("zklock.root-path", properties.getRootPath(),
					(rule >= 0) ? message.substring(rule + "is invalid: ".length()) : message);
		}
		if (properties.getZookeeper().getAuth().isConfigured()) {
			LockRootAclCheck.check(curatorFramework, engine.getRootPath(),
					properties.getZookeeper().getAuth().getScheme(),
					properties.getZookeeper().getAuth().isFailOnOpenAcl());
		}
		listeners.orderedStream().forEach(engine::addListener);
		return engine;
	}

	@Bean
	ApplicationClientCheck zkLockApplicationClientCheck(LockEngine engine, ListableBeanFactory beanFactory) {
		return new ApplicationClientCheck(engine, beanFactory);
	}

	@Bean
	LockGrantingLifecycle zkLockGrantingLifecycle(LockEngine engine, Environment environment,
			ObjectProvider<LockReleaseScheduler> delayedReleases) {
		Duration timeout = Binder.get(environment)
			.bind("spring.lifecycle.timeout-per-shutdown-phase", Duration.class)
			.orElse(Duration.ofSeconds(30));
		return new LockGrantingLifecycle(engine, timeout, delayedReleases.getIfAvailable());
	}

	@Bean
	@Primary
	@ConditionalOnMissingBean(value = ILockByCurator.class, ignored = SharedLockByCurator.class)
	ExclusiveLockByCurator exclusiveLockByCurator(LockEngine engine) {
		return new ExclusiveLockByCurator(engine);
	}

	@Bean
	@ConditionalOnMissingBean
	SemaphoreByCurator semaphoreByCurator(LockEngine engine) {
		return new SemaphoreByCurator(engine);
	}

	@Bean
	@Fallback
	@ConditionalOnMissingBean
	SharedLockByCurator sharedLockByCurator(LockEngine engine) {
		return new SharedLockByCurator(engine);
	}

}
