package io.zklock.interceptor;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import io.zklock.annotation.DistributedSemaphore;
import io.zklock.annotation.OnLockFailure;

/**
 * The validated {@link DistributedSemaphore} of one method.
 *
 * @param path the semaphore path from the annotation, and its key
 * @param permits the semaphore's permit count, at least 1
 * @param waitTime the wait from the annotation, or {@code null} for the default
 * @param onFailure what to do when no permit is acquired in time
 * @param returnKind how the method's result completes
 * @param methodDescription the method, as {@code Type.method(Params)}, for messages
 */
record SemaphoreDefinition(KeyedPath path, int permits, @Nullable Duration waitTime, OnLockFailure onFailure,
		ReturnKind returnKind, String methodDescription) implements GuardDefinition {

	@Override
	public String annotationName() {
		return "@DistributedSemaphore";
	}

}
