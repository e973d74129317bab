package io.zklock.autoconfigure;

import org.apache.commons.logging.LogFactory;

import io.zklock.annotation.OnHoldExceeded;
import io.zklock.annotation.SkippedCall;
import io.zklock.annotation.SkippedCallListener;
import io.zklock.interceptor.AnnotationSettings;
import io.zklock.interceptor.DistributedLockAdvisor;
import io.zklock.interceptor.LockReleaseScheduler;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.SemaphoreByCurator;
import io.zklock.lock.event.LockListener;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;

/**
 * The {@link io.zklock.annotation.DistributedLock} advisor. It is created while the
 * auto-proxy creator collects advisors, before ordinary beans exist, so it binds its few
 * settings straight from the {@link Environment} and looks the lock bean up on first use.
 */
@Configuration(proxyBeanMethods = false)
class DistributedLockConfiguration {

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static DistributedLockAdvisor distributedLockAdvisor(Environment environment,
			ObjectProvider<ILockByCurator> locks, ObjectProvider<SemaphoreByCurator> semaphores,
			ObjectProvider<SkippedCallListener> skipListeners, ObjectProvider<LockListener> lockListeners,
			BeanFactory beanFactory, LockReleaseScheduler zkLockReleaseScheduler) {
		ZkLockProperties properties = Binder.get(environment).bindOrCreate("zklock", ZkLockProperties.class);
		DistributedLockAdvisor advisor = new DistributedLockAdvisor(locks::getObject, semaphores::getObject,
				(call) -> skipListeners.orderedStream().forEach((listener) -> notify(listener, call)),
				properties.getRootPath(), settings(properties, new ZkLockPropertyChecks(environment)),
				environment::resolveRequiredPlaceholders, beanFactory, zkLockReleaseScheduler,
				new HoldEventRelay(lockListeners));
		advisor.setOrder(properties.getAspectOrder());
		return advisor;
	}

	/** The interceptor's settings, each checked with a message naming the property as written. */
	private static AnnotationSettings settings(ZkLockProperties properties, ZkLockPropertyChecks checks) {
		if (properties.getDefaultWaitTime() == null || properties.getDefaultWaitTime().isNegative()) {
			throw checks.invalid("zklock.default-wait-time", properties.getDefaultWaitTime(),
					"it is " + ((properties.getDefaultWaitTime() == null) ? "empty" : "negative")
							+ "; set '0' to try once, or a duration such as '30s'");
		}
		if (properties.getHoldAfterCancel() == null || properties.getHoldAfterCancel().isNegative()) {
			throw checks.invalid("zklock.hold-after-cancel", properties.getHoldAfterCancel(),
					"it is " + ((properties.getHoldAfterCancel() == null) ? "empty" : "negative")
							+ "; set a duration such as '10s', or '0' to release at once when a call is cancelled");
		}
		if (properties.getDefaultHoldAtMost() != null && (properties.getDefaultHoldAtMost().isNegative()
				|| properties.getDefaultHoldAtMost().isZero())) {
			throw checks.invalid("zklock.default-hold-at-most", properties.getDefaultHoldAtMost(),
					"it is not positive; set a duration such as '10m', or leave it unset for no bound");
		}
		if (properties.getOnHoldExceeded() == OnHoldExceeded.DEFAULT) {
			throw checks.invalid("zklock.on-hold-exceeded", properties.getOnHoldExceeded(),
					"'default' stands for this property on the annotation; set warn, interrupt or cancel");
		}
		return new AnnotationSettings(properties.getDefaultWaitTime(), properties.getOnLockLost(),
				properties.isReleaseAfterTransaction(), properties.getHoldAfterCancel(),
				properties.getDefaultHoldAtMost(), properties.getOnHoldExceeded());
	}

	/**
	 * Releases the locks of {@code holdAtLeast} calls when due; a lifecycle bean, so the locks
	 * still waiting when the context closes are released then, before the client closes.
	 */
	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static LockReleaseScheduler zkLockReleaseScheduler() {
		return new LockReleaseScheduler();
	}

	private static void notify(SkippedCallListener listener, SkippedCall call) {
		try {
			listener.onSkipped(call);
		}
		catch (RuntimeException ex) {
			LogFactory.getLog(DistributedLockConfiguration.class)
				.warn("Skipped-call listener " + listener + " failed for '" + call.lockPath() + "'", ex);
		}
	}

	@Bean
	@ConditionalOnClass(name = "org.springframework.transaction.interceptor.TransactionAttributeSourceAdvisor")
	static TransactionOrderCheck zkLockTransactionOrderCheck(ListableBeanFactory beanFactory) {
		return new TransactionOrderCheck(beanFactory);
	}

}
