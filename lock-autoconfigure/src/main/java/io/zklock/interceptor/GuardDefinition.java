package io.zklock.interceptor;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.DistributedSemaphore;
import io.zklock.annotation.OnLockFailure;

/**
 * The validated annotation of one method: its locks ({@link LockDefinition}) or its
 * semaphore ({@link SemaphoreDefinition}), with what they share.
 */
sealed interface GuardDefinition permits LockDefinition, SemaphoreDefinition {

	/** The wait from the annotations (the longest), or {@code null} for the default. */
	@Nullable Duration waitTime();

	/** What to do when the locks are not acquired in time. */
	OnLockFailure onFailure();

	/** How the method's result completes, which decides when its locks are released. */
	ReturnKind returnKind();

	/** The method, as {@code Type.method(Params)}, for messages. */
	String methodDescription();

	/** {@code "@DistributedLock"} or {@code "@DistributedSemaphore"}, for messages. */
	String annotationName();

}
