package io.zklock.autoconfigure;

import org.jspecify.annotations.Nullable;

import io.zklock.annotation.InvalidLockAnnotationException;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.Ordered;

/**
 * Reports zklock's start-up failures as a description and an action instead of a stack trace:
 * <ul>
 * <li>{@link ZkLockStartupException}: failures that are not one property's value (unreachable
 * ensemble, credentials that may not read the lock root, an open lock root, a TLS store that
 * does not open, ambiguous clients, annotated methods without zklock's lock beans or that no
 * proxy intercepts);</li>
 * <li>{@link InvalidLockAnnotationException}: an invalid {@code @DistributedLock} or
 * {@code @DistributedSemaphore}. It is thrown while the auto-proxy creator matches the bean's
 * methods against zklock's advisor, so it arrives wrapped in the
 * {@code BeanCreationException}s of that bean and of every bean that was being created
 * because it depends on it.</li>
 * </ul>
 * The first of them in the failure's cause chain is reported.
 */
class ZkLockFailureAnalyzer implements FailureAnalyzer, Ordered {

	@Override
	public @Nullable FailureAnalysis analyze(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof ZkLockStartupException startup) {
				return new FailureAnalysis(startup.getDescription(), startup.getAction(), startup);
			}
			if (cause instanceof InvalidLockAnnotationException invalid) {
				return new FailureAnalysis(invalid.getDescription(), invalid.getAction(), invalid);
			}
		}
		return null;
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
