package io.zklock.benchmarks.jmh;

import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.HoldOwner;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockRequest;
import io.zklock.lock.LockState;
import io.zklock.lock.ReleaseResult;
import io.zklock.lock.LockEngine;

/**
 * An {@link ExclusiveLockByCurator} whose {@code tryAcquire} hands out an in-memory handle at
 * once, without ZooKeeper: the lock behind the annotation when only the interceptor's own cost
 * is measured. Counts its acquisitions, so the benchmark can check the interceptor really
 * came through here.
 */
public class InMemoryLocks extends ExclusiveLockByCurator {

	private final AtomicLong acquisitions = new AtomicLong();

	/**
	 * Creates the in-memory locks.
	 * @param engine zklock's engine (unused by the in-memory handles)
	 */
	public InMemoryLocks(LockEngine engine) {
		super(engine);
	}

	@Override
	public Optional<LockHandle> tryAcquire(LockRequest request) {
		this.acquisitions.incrementAndGet();
		return Optional.of(new Handle(request.path(), request.lockName().orElse(request.path()), request.mode(),
				request.owner()));
	}

	/**
	 * The handles handed out so far.
	 * @return the acquisition count
	 */
	public long acquisitions() {
		return this.acquisitions.get();
	}

	private static final class Handle implements LockHandle {

		private final String path;

		private final String name;

		private final LockMode mode;

		private final HoldOwner owner;

		private final Instant acquiredAt = Instant.now();

		private volatile boolean released;

		Handle(String path, String name, LockMode mode, HoldOwner owner) {
			this.path = path;
			this.name = name;
			this.mode = mode;
			this.owner = owner;
		}

		@Override
		public String lockPath() {
			return this.path;
		}

		@Override
		public String lockName() {
			return this.name;
		}

		@Override
		public String nodePath() {
			return "/in-memory/" + this.path;
		}

		@Override
		public LockMode mode() {
			return this.mode;
		}

		@Override
		public HoldOwner owner() {
			return this.owner;
		}

		@Override
		public long fencingToken() {
			return 1;
		}

		@Override
		public Instant acquiredAt() {
			return this.acquiredAt;
		}

		@Override
		public boolean isHeld() {
			return !this.released;
		}

		@Override
		public LockState state() {
			return this.released ? LockState.RELEASED : LockState.HELD;
		}

		@Override
		public Runnable onLost(Consumer<LockHandle> listener) {
			return () -> {
			};
		}

		@Override
		public ReleaseResult release() {
			if (this.released) {
				return ReleaseResult.ALREADY_RELEASED;
			}
			this.released = true;
			return ReleaseResult.RELEASED;
		}

	}

}
