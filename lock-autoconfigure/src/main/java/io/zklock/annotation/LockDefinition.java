package io.zklock.annotation;

import java.time.Duration;

import io.zklock.lock.LockMode;

import org.springframework.expression.Expression;

/**
 * A validated {@link DistributedLock} of one method.
 *
 * @param path the lock path from the annotation, without a leading {@code '/'}
 * @param key the parsed key expression, or {@code null} for none
 * @param keySource the key expression's text, for error messages
 * @param mode the lock mode
 * @param waitTime the wait from the annotation, or {@code null} for the default
 * @param methodDescription the method, as {@code Type.method(Params)}, for messages
 * @param permits for a {@link DistributedSemaphore}: its permit count; {@code 0} for a lock
 */
record LockDefinition(String path, Expression key, String keySource, LockMode mode, Duration waitTime,
		String methodDescription, int permits) {

	boolean isSemaphore() {
		return this.permits > 0;
	}

}
