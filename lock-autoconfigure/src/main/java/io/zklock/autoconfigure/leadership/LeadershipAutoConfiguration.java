package io.zklock.autoconfigure.leadership;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;

import io.zklock.annotation.SkippedCall;
import io.zklock.annotation.SkippedCallListener;
import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.autoconfigure.ZkLockProperties;
import io.zklock.interceptor.LeaderOnlyAdvisor;
import io.zklock.leadership.LeaderElection;
import io.zklock.lock.LockEngine;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for zklock's leader election: a
 * {@link LeaderElection} over the application's {@link LockEngine} (its Curator client, on an
 * engine of the election's own), set from {@code zklock.leadership.*} and
 * {@link LeaderElectionCustomizer} beans; the candidacies of the declared roles, joined when the
 * context starts and left, handing each role over, when it stops ({@code LeadershipLifecycle});
 * the {@link io.zklock.annotation.LeaderOnly} advisor; leader-scoped beans; the application events
 * of {@code io.zklock.leadership.event}, and Spring Integration's leader events when it is on the
 * class path. Switched off by {@code zklock.leadership.enabled=false} (and {@code zklock.enabled=false}).
 *
 * @author zklock
 */
@AutoConfiguration(after = ZkLockAutoConfiguration.class)
@ConditionalOnClass(CuratorFramework.class)
@ConditionalOnBooleanProperty(name = "zklock.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "zklock.leadership.enabled", matchIfMissing = true)
@ConditionalOnBean(LockEngine.class)
public final class LeadershipAutoConfiguration {

	/**
	 * The {@code @LeaderOnly} advisor. It is created while the auto-proxy creator collects advisors,
	 * before ordinary beans exist, so it binds its settings straight from the {@link Environment} and
	 * looks the election up at the first call.
	 */
	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static LeaderOnlyAdvisor zkLockLeaderOnlyAdvisor(Environment environment, ObjectProvider<LeaderElection> elections,
			ObjectProvider<SkippedCallListener> skipListeners) {
		ZkLockProperties properties = Binder.get(environment).bindOrCreate("zklock", ZkLockProperties.class);
		LeaderOnlyAdvisor advisor = new LeaderOnlyAdvisor(elections::getIfUnique,
				(call) -> skipListeners.orderedStream().forEach((listener) -> notify(listener, call)),
				properties.getLeadership().getRootPath());
		// just outside @DistributedLock's advisor: a follower skips before it would wait for a lock
		int lockOrder = properties.getAspectOrder();
		advisor.setOrder((lockOrder == Integer.MIN_VALUE) ? lockOrder : lockOrder - 1);
		return advisor;
	}

	@Bean
	@ConditionalOnMissingBean
	LeaderElection zkLockLeaderElection(LockEngine engine, ZkLockProperties properties, Environment environment,
			ObjectProvider<LeaderElectionCustomizer> customizers) {
		ZkLockProperties.Leadership leadership = properties.getLeadership();
		Duration handoverTimeout = leadership.getHandoverTimeout();
		if (handoverTimeout == null || handoverTimeout.isNegative()) {
			throw new InvalidConfigurationPropertyValueException("zklock.leadership.handover-timeout", handoverTimeout,
					"it must be zero or more; set a duration such as '10s', the longest a handover waits for the "
							+ "leader's work to stop");
		}
		double leaseFactor = leadership.getLeaseFactor();
		if (!(leaseFactor > 0 && leaseFactor < 1)) {
			throw new InvalidConfigurationPropertyValueException("zklock.leadership.lease-factor", leaseFactor,
					"it must be greater than 0 and less than 1, such as 0.8: the lease must end before the server "
							+ "can expire the session");
		}
		LeaderElection.Builder builder = LeaderElection.builder(engine)
			.rootPath(leadership.getRootPath())
			.holder(environment.getProperty("spring.application.name"), properties.getInstanceId())
			.leaseFactor(leaseFactor)
			.handoverTimeout(handoverTimeout);
		customizers.orderedStream().forEach((customizer) -> customizer.customize(builder));
		try {
			return builder.build();
		}
		catch (IllegalArgumentException ex) {
			// "Leadership root 'x' is invalid: Lock root 'x' is invalid: <rule>": the exception names the property
			String message = String.valueOf(ex.getMessage());
			int rule = message.lastIndexOf("is invalid: ");
			throw new InvalidConfigurationPropertyValueException("zklock.leadership.root-path",
					leadership.getRootPath(), (rule >= 0) ? message.substring(rule + "is invalid: ".length()) : message);
		}
	}

	@Bean
	LeadershipDeclarations zkLockLeadershipDeclarations(ConfigurableListableBeanFactory beanFactory,
			ZkLockProperties properties) {
		return new LeadershipDeclarations(beanFactory, properties.getLeadership());
	}

	@Bean(destroyMethod = "close")
	RevocationClock zkLockRevocationClock(LockEngine engine) {
		return new RevocationClock(engine.getClient());
	}

	@Bean
	LeadershipLifecycle zkLockLeadershipLifecycle(LeaderElection election, LeadershipDeclarations declarations,
			ZkLockProperties properties, ConfigurableListableBeanFactory beanFactory,
			ApplicationEventPublisher eventPublisher, ObjectProvider<LeadershipTransitionObserver> observers,
			ObjectProvider<RoleEvents> moreEvents, RevocationClock clock,
			ObjectProvider<ApplicationAvailability> availability) {
		List<RoleEvents> events = new ArrayList<>();
		events.add(new ApplicationRoleEvents(eventPublisher));
		moreEvents.orderedStream().forEach(events::add);
		ZkLockProperties.Leadership leadership = properties.getLeadership();
		ApplicationAvailability readiness = availability.getIfAvailable();
		boolean readyNow = readiness != null && readiness.getReadinessState() == ReadinessState.ACCEPTING_TRAFFIC;
		return new LeadershipLifecycle(election, declarations,
				LeadershipLifecycle.transitions(election, beanFactory, observers.orderedStream().toList(), events, clock,
						leadership.getHandoverTimeout()),
				leadership.isYieldWhenNotReady(), readyNow);
	}

	@Bean
	@ConditionalOnBooleanProperty("zklock.leadership.yield-when-not-ready")
	ReadinessCandidacy zkLockReadinessCandidacy(LeadershipLifecycle lifecycle) {
		return new ReadinessCandidacy(lifecycle);
	}

	private static void notify(SkippedCallListener listener, SkippedCall call) {
		try {
			listener.onSkipped(call);
		}
		catch (RuntimeException ex) {
			LogFactory.getLog(LeadershipAutoConfiguration.class)
				.warn("Skipped-call listener " + listener + " failed for role '" + call.lockPath() + "'", ex);
		}
	}

	/** Spring Integration's leader events, for an application written for its leader initiators. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.integration.leader.event.LeaderEventPublisher")
	static class IntegrationEventsConfiguration {

		@Bean
		RoleEvents zkLockIntegrationRoleEvents(ApplicationEventPublisher eventPublisher) {
			return new IntegrationRoleEvents(eventPublisher);
		}

	}

}
