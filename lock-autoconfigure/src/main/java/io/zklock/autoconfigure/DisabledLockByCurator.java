package io.zklock.autoconfigure;

import java.util.List;
import java.util.Optional;

import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockRequest;
import io.zklock.lock.ReleaseResult;
import io.zklock.lock.event.HeldLock;

/**
 * The {@link ILockByCurator} of an application with {@code zklock.enabled=false}, so that an
 * application written for zklock starts with the switch off: it holds no locks
 * ({@link #heldLocks()} is empty), and refuses every acquire, by any of the interface's
 * methods, with an {@link IllegalStateException} saying that zklock is disabled. It never
 * grants a lock it does not hold: code that takes a lock in code must not run as if it held
 * one. Thread-safe.
 */
final class DisabledLockByCurator implements ILockByCurator {

	private static final String DISABLED = "zklock is disabled (zklock.enabled=false), so ";

	@Override
	public Optional<LockHandle> tryAcquire(LockRequest request) {
		if (request == null) {
			throw new IllegalArgumentException("Lock request must not be null; build one with LockRequest.of(path, mode)");
		}
		throw new IllegalStateException(DISABLED + "the " + request.mode() + " lock on '" + request.path()
				+ "' cannot be acquired: with zklock off, ILockByCurator takes no locks and annotated methods run "
				+ "without them. Remove zklock.enabled=false to lock.");
	}

	@Override
	public ReleaseResult releaseDistributedLock(String path) {
		throw new IllegalStateException(DISABLED + "no lock on '" + path + "' is held to release: with zklock off, "
				+ "ILockByCurator takes no locks. Remove zklock.enabled=false to lock.");
	}

	@Override
	public List<HeldLock> heldLocks() {
		return List.of();
	}

	@Override
	public String toString() {
		return "ILockByCurator (zklock disabled: zklock.enabled=false)";
	}

}
