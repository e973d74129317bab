package io.zklock.interceptor;

import java.util.function.Consumer;
import java.util.function.Supplier;

import org.aopalliance.aop.Advice;
import org.jspecify.annotations.Nullable;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.DistributedSemaphore;
import io.zklock.annotation.SkippedCall;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.SemaphoreByCurator;
import io.zklock.lock.event.LockListener;

import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.util.StringValueResolver;

/**
 * The advisor that applies {@link DistributedLock} and {@link DistributedSemaphore}: an AspectJ-free Spring AOP advisor,
 * like the ones behind {@code @Transactional} and {@code @Async}. Its order decides how it
 * nests with other advice; zklock sets it from {@code zklock.aspect-order}.
 */
public final class DistributedLockAdvisor extends AbstractPointcutAdvisor {

	/** Matches the annotated methods. */
	private final DistributedLockPointcut pointcut;

	/** Runs them under their locks. */
	private final DistributedLockInterceptor interceptor;

	/**
	 * Creates the advisor with a {@link LockReleaseScheduler} of its own, which is never
	 * stopped: locks of {@link DistributedLock#holdAtLeast()} calls still waiting when the
	 * application ends go with its ZooKeeper session.
	 * @param locks supplies the lock API (looked up on first use, so the advisor can be
	 * created early without pulling the ZooKeeper client along)
	 * @param semaphores supplies the semaphores for {@link DistributedSemaphore}, likewise
	 * @param skipped told of each call skipped because its lock was busy
	 * @param rootPath the lock root, for messages
	 * @param settings the interceptor's settings
	 * @param placeholders resolves {@code ${…}} placeholders in wait times; may be
	 * {@code null}
	 * @param beanFactory resolves {@code @bean} references in key expressions; may be
	 * {@code null}
	 */
	public DistributedLockAdvisor(Supplier<ILockByCurator> locks, Supplier<SemaphoreByCurator> semaphores,
			Consumer<SkippedCall> skipped, String rootPath, AnnotationSettings settings,
			@Nullable StringValueResolver placeholders, @Nullable BeanFactory beanFactory) {
		this(locks, semaphores, skipped, rootPath, settings, placeholders, beanFactory, new LockReleaseScheduler());
	}

	/**
	 * Creates the advisor.
	 * @param locks supplies the lock API (looked up on first use, so the advisor can be
	 * created early without pulling the ZooKeeper client along)
	 * @param semaphores supplies the semaphores for {@link DistributedSemaphore}, likewise
	 * @param skipped told of each call skipped because its lock was busy
	 * @param rootPath the lock root, for messages
	 * @param settings the interceptor's settings
	 * @param placeholders resolves {@code ${…}} placeholders in wait times; may be
	 * {@code null}
	 * @param beanFactory resolves {@code @bean} references in key expressions; may be
	 * {@code null}
	 * @param releases releases the locks of {@link DistributedLock#holdAtLeast()} calls when
	 * due; stop or close it with the application, so that locks still waiting are released
	 * then
	 */
	public DistributedLockAdvisor(Supplier<ILockByCurator> locks, Supplier<SemaphoreByCurator> semaphores,
			Consumer<SkippedCall> skipped, String rootPath, AnnotationSettings settings,
			@Nullable StringValueResolver placeholders, @Nullable BeanFactory beanFactory,
			LockReleaseScheduler releases) {
		this(locks, semaphores, skipped, rootPath, settings, placeholders, beanFactory, releases, new LockListener() {
		});
	}

	/**
	 * Creates the advisor.
	 * @param locks supplies the lock API (looked up on first use, so the advisor can be
	 * created early without pulling the ZooKeeper client along)
	 * @param semaphores supplies the semaphores for {@link DistributedSemaphore}, likewise
	 * @param skipped told of each call skipped because its lock was busy
	 * @param rootPath the lock root, for messages
	 * @param settings the interceptor's settings
	 * @param placeholders resolves {@code ${…}} placeholders in wait times; may be
	 * {@code null}
	 * @param beanFactory resolves {@code @bean} references in key expressions; may be
	 * {@code null}
	 * @param releases releases the locks of {@link DistributedLock#holdAtLeast()} calls, and of
	 * cancelled calls after {@code zklock.hold-after-cancel}, when due; stop or close it with the
	 * application, so that locks still waiting are released then ({@link DistributedLock#holdAtMost()}
	 * is timed by the engine, whose listeners hear of a breach)
	 * @param holdEvents told when a cancelled call's locks are released after
	 * {@code zklock.hold-after-cancel} ({@link LockListener#onHoldExceeded} with {@code released}
	 * {@code true}), on the release thread; exceptions it throws are logged
	 */
	public DistributedLockAdvisor(Supplier<ILockByCurator> locks, Supplier<SemaphoreByCurator> semaphores,
			Consumer<SkippedCall> skipped, String rootPath, AnnotationSettings settings,
			@Nullable StringValueResolver placeholders, @Nullable BeanFactory beanFactory,
			LockReleaseScheduler releases, LockListener holdEvents) {
		LockDefinitionSource definitions = new LockDefinitionSource(rootPath, placeholders);
		this.pointcut = new DistributedLockPointcut(definitions);
		this.interceptor = new DistributedLockInterceptor(definitions, new LockKeyResolver(beanFactory),
				new LockAcquirer(locks, semaphores, HoldBounds.of(releases, holdEvents, settings)), settings, skipped);
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
