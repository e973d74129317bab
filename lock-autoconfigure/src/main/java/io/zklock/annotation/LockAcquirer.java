package io.zklock.annotation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import io.zklock.lock.AbstractLockByCurator;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockAcquisitionException;
import io.zklock.lock.LockHandle;
import io.zklock.lock.PermitLease;
import io.zklock.lock.SemaphoreByCurator;

/**
 * Takes the locks of one call: every lock in the given (canonical) order under one
 * deadline, all or nothing; or one permit of a semaphore.
 */
final class LockAcquirer {

	private final Supplier<ILockByCurator> locks;

	private final Supplier<SemaphoreByCurator> semaphores;

	private volatile ILockByCurator resolvedLocks;

	LockAcquirer(Supplier<ILockByCurator> locks, Supplier<SemaphoreByCurator> semaphores) {
		this.locks = locks;
		this.semaphores = semaphores;
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
	 * @return the held locks, or {@code null} if the wait ran out (nothing is left held)
	 * @throws LockAcquisitionException if interrupted or if ZooKeeper fails
	 */
	AcquiredLocks acquire(LockDefinition definition, List<ResolvedLock> targets, Duration wait) {
		if (definition.isSemaphore()) {
			ResolvedLock target = targets.get(0);
			Optional<PermitLease> permit = this.semaphores.get()
				.tryAcquire(target.path(), definition.permits(), wait);
			return permit.map((lease) -> AcquiredLocks.ofPermit(lease, definition.methodDescription())).orElse(null);
		}
		ILockByCurator api = locks();
		long deadline = System.nanoTime() + wait.toNanos();
		List<LockHandle> held = new ArrayList<>(targets.size());
		boolean complete = false;
		try {
			for (ResolvedLock target : targets) {
				Duration remaining = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
				Optional<LockHandle> lock = api.tryAcquire(target.path(), target.mode(), remaining, target.lockName());
				if (lock.isEmpty()) {
					return null;
				}
				held.add(lock.get());
			}
			complete = true;
			return AcquiredLocks.ofLocks(held, definition.methodDescription());
		}
		finally {
			if (!complete) {
				AcquiredLocks.ofLocks(held, definition.methodDescription()).release();
			}
		}
	}

	/** The exception for a wait that ran out. */
	static LockAcquisitionException timeout(LockDefinition definition, List<ResolvedLock> targets, Duration wait) {
		String first = targets.get(0).path();
		String what;
		if (definition.isSemaphore()) {
			what = "one of " + definition.permits() + " permits of semaphore '" + first + "'";
		}
		else if (targets.size() == 1) {
			what = "the " + targets.get(0).mode() + " lock on '" + first + "'";
		}
		else {
			what = "the locks on " + targets.stream().map((t) -> "'" + t.path() + "'").toList();
		}
		return new LockAcquisitionException(first, "Could not acquire " + what + " within " + wait.toMillis()
				+ " ms for " + definition.methodDescription());
	}

	/** Reports a skipped call to the lock listeners, when the lock API is zklock's own. */
	void reportSkipped(List<ResolvedLock> targets, Duration waited) {
		if (locks() instanceof AbstractLockByCurator api) {
			for (ResolvedLock target : targets) {
				api.getCoordinator().reportSkipped(target.path(), target.lockName(), target.mode(), waited);
			}
		}
	}

}
