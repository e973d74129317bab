package io.zklock.annotation;

import java.time.Duration;
import java.util.function.Supplier;

import org.aopalliance.aop.Advice;

import io.zklock.lock.ILockByCurator;
import io.zklock.lock.SemaphoreByCurator;

import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.beans.factory.BeanFactory;

/**
 * The advisor that applies {@link DistributedLock} and {@link DistributedSemaphore}: an AspectJ-free Spring AOP advisor,
 * like the ones behind {@code @Transactional} and {@code @Async}. Its order decides how it
 * nests with other advice; zklock sets it from {@code zklock.aspect-order}.
 */
public final class DistributedLockAdvisor extends AbstractPointcutAdvisor {

	private final DistributedLockPointcut pointcut;

	private final DistributedLockInterceptor interceptor;

	/**
	 * Creates the advisor.
	 * @param locks supplies the lock API (looked up on first use, so the advisor can be
	 * created early without pulling the ZooKeeper client along)
	 * @param semaphores supplies the semaphores for {@link DistributedSemaphore}, likewise
	 * @param rootPath the lock root, for messages
	 * @param defaultWaitTime the wait of annotations that set none
	 * @param onLockLost what to do when a lock is lost while its method runs
	 * @param beanFactory resolves {@code @bean} references in key expressions; may be
	 * {@code null}
	 */
	public DistributedLockAdvisor(Supplier<ILockByCurator> locks, Supplier<SemaphoreByCurator> semaphores,
			String rootPath, Duration defaultWaitTime, OnLockLost onLockLost, BeanFactory beanFactory) {
		LockDefinitionSource definitions = new LockDefinitionSource(rootPath);
		this.pointcut = new DistributedLockPointcut(definitions);
		this.interceptor = new DistributedLockInterceptor(definitions, new LockKeyResolver(beanFactory), locks,
				semaphores, defaultWaitTime, (onLockLost != null) ? onLockLost : OnLockLost.FAIL);
	}

	@Override
	public Pointcut getPointcut() {
		return this.pointcut;
	}

	@Override
	public Advice getAdvice() {
		return this.interceptor;
	}

}
