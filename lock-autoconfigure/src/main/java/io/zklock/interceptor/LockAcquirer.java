package io.zklock.interceptor;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.zklock.lock.AbstractLockByCurator;
import io.zklock.lock.HoldOwner;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockAcquisitionException;
import io.zklock.lock.LockEngine;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockRequest;
import io.zklock.lock.PermitLease;
import io.zklock.lock.SemaphoreByCurator;

/**
 * Takes the locks of one call: every lock in the given (canonical) order under one deadline,
 * all or nothing, with the owner the call's shape needs; or one permit of a semaphore.
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
	 * Takes the locks.
	 * @param owner {@link HoldOwner#THREAD} for a call that completes on its thread,
	 * {@link HoldOwner#CALL} for one whose result completes later
	 * @return the held locks, or {@code null} if the wait ran out (nothing is left held)
	 * @throws LockAcquisitionException if interrupted or if ZooKeeper fails
	 */
	@Nullable AcquiredLocks acquire(LockDefinition definition, List<ResolvedLock> targets, Duration wait,
			HoldOwner owner) {
		ILockByCurator api = locks();
		long deadline = System.nanoTime() + wait.toNanos();
		List<LockHandle> held = new ArrayList<>(targets.size());
		boolean complete = false;
		try {
			for (ResolvedLock target : targets) {
				Duration remaining = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
				Optional<LockHandle> lock = api.tryAcquire(LockRequest.of(target.path(), target.mode())
					.waitAtMost(remaining)
					.named(target.lockName())
					.ownedBy(owner));
				if (lock.isEmpty()) {
					return null;
				}
				held.add(lock.get());
			}
			complete = true;
			return AcquiredLocks.ofLocks(held, definition.methodDescription(), definition.holdAtLeast(), this.bounds,
					this.bounds.holdAtMost(definition.holdAtMost()), this.bounds.policy(definition.onHoldExceeded()));
		}
		finally {
			if (!complete) {
				AcquiredLocks.ofLocks(held, definition.methodDescription()).release();
			}
		}
	}

	/**
	 * Since when the client of the locks (or of the semaphores) is not connected, for the
	 * message of a wait that ran out.
	 * @return the instant, or {@code null} while connected or if the lock API does not say
	 */
	@Nullable Instant disconnectedSince(boolean semaphore) {
		LockEngine engine = semaphore ? this.semaphores.get().engine()
				: (locks() instanceof AbstractLockByCurator api) ? api.engine() : null;
		return (engine != null) ? engine.disconnectedSince().orElse(null) : null;
	}

	/**
	 * Takes one permit.
	 * @return the held permit, or {@code null} if the wait ran out
	 * @throws LockAcquisitionException if interrupted or if ZooKeeper fails
	 */
	@Nullable AcquiredLocks acquire(SemaphoreDefinition definition, String path, Duration wait) {
		Optional<PermitLease> permit = this.semaphores.get().tryAcquire(path, definition.permits(), wait);
		return permit.map((lease) -> AcquiredLocks.ofPermit(lease, definition.methodDescription(), this.bounds))
			.orElse(null);
	}

}
