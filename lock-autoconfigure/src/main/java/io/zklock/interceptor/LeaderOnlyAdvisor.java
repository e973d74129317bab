package io.zklock.interceptor;

import java.util.function.Consumer;
import java.util.function.Supplier;

import org.aopalliance.aop.Advice;
import org.jspecify.annotations.Nullable;

import io.zklock.annotation.LeaderOnly;
import io.zklock.annotation.SkippedCall;
import io.zklock.leadership.LeaderElection;

import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;

/**
 * The advisor that applies {@link LeaderOnly}: an AspectJ-free Spring AOP advisor, like the ones
 * behind {@code @Transactional} and {@code @Async}. zklock orders it just outside the
 * {@code DistributedLockAdvisor} ({@code zklock.aspect-order} minus one). Thread-safe.
 */
public final class LeaderOnlyAdvisor extends AbstractPointcutAdvisor {

	/** Matches the annotated methods. */
	private final LeaderOnlyPointcut pointcut;

	/** Runs them only on the leader of their role. */
	private final LeaderOnlyInterceptor interceptor;

	/**
	 * Creates the advisor.
	 * @param election supplies the application's leader election (looked up at the first call, so
	 * the advisor can be created early without pulling the ZooKeeper client along), or {@code null}
	 * while there is none (calls are then skipped)
	 * @param skipped told of each call skipped because this instance did not lead its role
	 * @param rootPath the leadership root, for messages
	 */
	public LeaderOnlyAdvisor(Supplier<? extends @Nullable LeaderElection> election, Consumer<SkippedCall> skipped,
			String rootPath) {
		LeaderOnlyDefinitionSource definitions = new LeaderOnlyDefinitionSource(rootPath);
		this.pointcut = new LeaderOnlyPointcut(definitions);
		this.interceptor = new LeaderOnlyInterceptor(definitions, election, skipped);
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
