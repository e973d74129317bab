package io.zklock.autoconfigure;

import io.zklock.annotation.InvalidLockAnnotationException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;

/**
 * Reports an invalid {@link io.zklock.annotation.DistributedLock} or
 * {@link io.zklock.annotation.DistributedSemaphore} found at start-up. The exception is thrown
 * while the auto-proxy creator matches the annotated bean's methods against zklock's advisor,
 * so it arrives wrapped in the {@code BeanCreationException}s of that bean and of every bean
 * that was being created because it depends on it; this analyzer finds it in that cause chain
 * and prints what is wrong and what to write instead.
 */
class InvalidLockAnnotationFailureAnalyzer extends AbstractFailureAnalyzer<InvalidLockAnnotationException>
		implements Ordered {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidLockAnnotationException cause) {
		return new FailureAnalysis(cause.getDescription(), cause.getAction(), cause);
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
