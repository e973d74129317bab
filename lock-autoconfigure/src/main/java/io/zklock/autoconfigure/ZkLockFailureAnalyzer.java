package io.zklock.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports zklock's start-up failures (unreachable ensemble, bad credentials, bad TLS
 * material, bad property) as a description and an action instead of a stack trace.
 */
class ZkLockFailureAnalyzer extends AbstractFailureAnalyzer<ZkLockStartupException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, ZkLockStartupException cause) {
		return new FailureAnalysis(cause.getDescription(), cause.getAction(), cause);
	}

}
