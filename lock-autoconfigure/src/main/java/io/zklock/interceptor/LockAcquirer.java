package io.zklock.interceptor;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.zklock.annotation.OnHoldExceeded;
import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.HoldOwner;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockAcquisitionException;
import io.zklock.lock.LockEngine;
import io.zklock.lock.LockGroup;
import io.zklock.lock.LockRequest;
import io.zklock.lock.PermitLease;
import io.zklock.lock.SemaphoreByCurator;
import io.zklock.lock.SharedLockByCurator;

/**
 * Takes the locks of one call, through the lock API's one multi-lock loop (a
 * {@link LockGroup} over the call's requests, under one wait, all or nothing), with the owner
 * the call's shape needs and the call's hold bound; or one permit of a semaphore.
 */
final class LockAcquirer {

	private final Supplier<ILockByCurator> locks;

	private final Supplier<SemaphoreByCurator> semaphores;

	private final HoldBounds bounds;

	private volatile @Nullable ILockByCurator resolvedLocks;

	LockAcquirer(Supplier<ILockByCurator> locks, Supplier<SemaphoreByCurator> semaphores, HoldBounds bounds) {
		this.locks = locks;
		this.semaphores = semaphores;
		this.bounds = bounds;
	}

	/** The lock API, looked up once on first use (a bean lookup per call costs on the hot path). */
	private ILockByCurator locks() {
		ILockByCurator api = this.resolvedLocks;
		if (api == null) {
			api = this.locks.get();
			this.resolvedLocks = api;
		}
		return api;
	}

	/**
	 * A call of {@code definition} about to take its locks or permit, with its bounds.
	 * @param definition the annotated method's definition
	 * @return the call, {@code ACQUIRING}
	 */
	LockedCall newCall(GuardDefinition definition) {
		if (definition instanceof LockDefinition locks) {
			return new LockedCall(definition.methodDescription(), locks.holdAtLeast(), this.bounds,
					this.bounds.policy(locks.onHoldExceeded()));
		}
		return new LockedCall(definition.methodDescription(), Duration.ZERO, this.bounds, OnHoldExceeded.WARN);
	}

	/**
	 * Takes the locks of {@code call}, as one group ({@link ILockByCurator#tryAcquireAll(List, Duration)}):
	 * each with its mode, name and the owner the call's shape needs, and the call's
	 * {@code holdAtMost} timed by the engine with {@code call} as its reaction.
	 * @param owner {@link HoldOwner#THREAD} for a call that completes on its thread,
	 * {@link HoldOwner#CALL} for one whose result completes later
	 * @return whether the locks were granted to {@code call}; {@code false} if the wait ran out
	 * (nothing is left held)
	 * @throws LockAcquisitionException if interrupted or if ZooKeeper fails
	 */
	boolean acquire(LockDefinition definition, List<ResolvedLock> targets, Duration wait, HoldOwner owner,
			LockedCall call) {
		Duration bound = this.bounds.holdAtMost(definition.holdAtMost());
		List<LockRequest> requests = new ArrayList<>(targets.size());
		for (ResolvedLock target : targets) {
			LockRequest request = LockRequest.of(target.path(), target.mode()).named(target.lockName()).ownedBy(owner);
			requests.add((bound != null) ? request.holdAtMost(bound).onHoldExceeded(call) : request);
		}
		Optional<LockGroup> group = locks().tryAcquireAll(requests, wait);
		group.ifPresent((held) -> call.granted(held.locks()));
		return group.isPresent();
	}

	/**
	 * Since when the client of the locks (or of the semaphores) is not connected, for the
	 * message of a wait that ran out.
	 * @return the instant, or {@code null} while connected or if the lock API does not say
	 */
	@Nullable Instant disconnectedSince(boolean semaphore) {
		LockEngine engine = semaphore ? this.semaphores.get().engine() : lockEngine();
		return (engine != null) ? engine.disconnectedSince().orElse(null) : null;
	}

	/**
	 * What an acquire of {@code request} by the current thread waits for now, as the lock engine
	 * tells ({@link LockEngine#explainWait(LockRequest)}), for the message of a wait that ran out.
	 * @return the explanation, or empty if the lock API is not zklock's or knows nothing of the lock
	 * path's holders
	 */
	Optional<String> explainWait(LockRequest request) {
		LockEngine engine = lockEngine();
		return (engine != null) ? engine.explainWait(request) : Optional.empty();
	}

	/** The engine of zklock's lock beans; {@code null} for a lock API of the application's own. */
	private @Nullable LockEngine lockEngine() {
		ILockByCurator api = locks();
		if (api instanceof ExclusiveLockByCurator exclusive) {
			return exclusive.engine();
		}
		return (api instanceof SharedLockByCurator shared) ? shared.engine() : null;
	}

	/**
	 * Takes one permit for {@code call}; a wait too long to count ({@link SaturatedNanos}) waits as
	 * long as it takes.
	 * @return whether it was granted; {@code false} if the wait ran out
	 * @throws LockAcquisitionException if interrupted or if ZooKeeper fails
	 */
	boolean acquire(SemaphoreDefinition definition, String path, Duration wait, LockedCall call) {
		SemaphoreByCurator semaphores = this.semaphores.get();
		// the lock API's semaphores do not saturate a wait too long to count, as its locks do
		Optional<PermitLease> permit = SaturatedNanos.isNever(wait)
				? Optional.of(semaphores.acquire(path, definition.permits()))
				: semaphores.tryAcquire(path, definition.permits(), wait);
		permit.ifPresent(call::granted);
		return permit.isPresent();
	}

}
