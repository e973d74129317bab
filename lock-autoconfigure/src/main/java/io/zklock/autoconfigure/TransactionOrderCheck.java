package io.zklock.autoconfigure;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.zklock.interceptor.DistributedLockAdvisor;

import org.springframework.aop.Advisor;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.core.Ordered;
import org.springframework.transaction.interceptor.TransactionInterceptor;

/**
 * At start-up, warns once if a transaction advisor would run outside (or in undefined order
 * with) the {@code @DistributedLock} interceptor: the transaction would then begin before the
 * lock is taken, and, with {@code zklock.release-after-transaction=false}, commit after it is
 * released.
 */
final class TransactionOrderCheck implements SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(TransactionOrderCheck.class);

	private final ListableBeanFactory beanFactory;

	TransactionOrderCheck(ListableBeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	@Override
	public void afterSingletonsInstantiated() {
		int lockOrder = this.beanFactory.getBeanProvider(DistributedLockAdvisor.class)
			.orderedStream()
			.findFirst()
			.map(DistributedLockAdvisor::getOrder)
			.orElse(Ordered.LOWEST_PRECEDENCE);
		this.beanFactory.getBeanProvider(Advisor.class)
			.stream()
			.filter((advisor) -> advisor.getAdvice() instanceof TransactionInterceptor)
			.mapToInt((advisor) -> (advisor instanceof Ordered ordered) ? ordered.getOrder()
					: Ordered.LOWEST_PRECEDENCE)
			.filter((txOrder) -> txOrder <= lockOrder)
			.findFirst()
			.ifPresent((txOrder) -> logger.warn("The transaction advisor's order (" + txOrder
					+ ") does not run inside the @DistributedLock interceptor's (zklock.aspect-order=" + lockOrder
					+ "): transactions begin before their lock is taken, and read state the lock does not protect yet"
					+ ". Set zklock.aspect-order lower than " + txOrder + "."));
	}

}
