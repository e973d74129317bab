package io.zklock.interceptor;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.OnHoldExceeded;
import io.zklock.annotation.OnLockFailure;

/**
 * The validated {@link DistributedLock}s of one method.
 *
 * @param locks the locks, in declaration order
 * @param waitTime the wait from the annotations (the longest), or {@code null} for the
 * default
 * @param onFailure what to do when the locks are not acquired in time
 * @param returnKind how the method's result completes
 * @param methodDescription the method, as {@code Type.method(Params)}, for messages
 * @param holdAtLeast the shortest hold from the annotations (the longest of them), counted
 * from the grant; {@link Duration#ZERO} for none
 * @param holdAtMost the bound on the hold from the annotations (the shortest of them), counted
 * from the grant; {@code null} for {@code zklock.default-hold-at-most}
 * @param onHoldExceeded what to do when the bound passes
 */
record LockDefinition(List<LockSpec> locks, @Nullable Duration waitTime, OnLockFailure onFailure,
		ReturnKind returnKind, String methodDescription, Duration holdAtLeast, @Nullable Duration holdAtMost,
		OnHoldExceeded onHoldExceeded) implements GuardDefinition {

	/** A definition without a shortest hold or a bound on it. */
	LockDefinition(List<LockSpec> locks, @Nullable Duration waitTime, OnLockFailure onFailure, ReturnKind returnKind,
			String methodDescription) {
		this(locks, waitTime, onFailure, returnKind, methodDescription, Duration.ZERO, null, OnHoldExceeded.DEFAULT);
	}

	@Override
	public String annotationName() {
		return "@DistributedLock";
	}

}
