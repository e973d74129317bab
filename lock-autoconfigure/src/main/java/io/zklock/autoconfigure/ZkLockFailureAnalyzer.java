package io.zklock.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;

/**
 * Reports zklock's start-up failures that are not one property's value (unreachable
 * ensemble, credentials that may not read the lock root, an open lock root, a TLS store that
 * does not open, ambiguous clients, annotated methods without zklock's lock beans) as a
 * description and an action instead of a stack trace.
 */
class ZkLockFailureAnalyzer extends AbstractFailureAnalyzer<ZkLockStartupException> implements Ordered {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, ZkLockStartupException cause) {
		return new FailureAnalysis(cause.getDescription(), cause.getAction(), cause);
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
