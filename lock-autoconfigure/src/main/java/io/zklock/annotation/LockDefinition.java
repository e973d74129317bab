package io.zklock.annotation;

import java.time.Duration;
import java.util.List;

/**
 * The validated lock annotations of one method.
 *
 * @param locks the locks ({@link DistributedLock}s, or one {@link DistributedSemaphore})
 * @param waitTime the wait from the annotations (the longest), or {@code null} for the
 * default
 * @param onFailure what to do when the locks are not acquired in time
 * @param permits for a {@link DistributedSemaphore}: its permit count; {@code 0} for locks
 * @param returnKind how the method's result completes
 * @param methodDescription the method, as {@code Type.method(Params)}, for messages
 */
record LockDefinition(List<LockSpec> locks, Duration waitTime, OnLockFailure onFailure, int permits,
		ReturnKind returnKind, String methodDescription) {

	boolean isSemaphore() {
		return this.permits > 0;
	}

	String annotationName() {
		return isSemaphore() ? "@DistributedSemaphore" : "@DistributedLock";
	}

}
