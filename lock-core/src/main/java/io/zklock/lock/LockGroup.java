package io.zklock.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

import io.zklock.internal.Durations;
import io.zklock.internal.LockPaths;

/**
 * Locks on several lock paths held together, from
 * {@link ILockByCurator#tryAcquireAll(java.util.Collection, LockMode, java.time.Duration)} (call-owned,
 * one mode) or {@link ILockByCurator#tryAcquireAll(List, Duration)} (each request its own mode,
 * name, owner and bound).
 * They were acquired in one canonical order (sorted lock paths), so callers that name the
 * same paths in different orders cannot deadlock; {@link #release()} releases them in the
 * reverse order. Thread-safe; may be released from any thread.
 */
public final class LockGroup implements AutoCloseable {

	private final List<LockHandle> locks;

	LockGroup(List<LockHandle> locks) {
		this.locks = List.copyOf(locks);
	}

	/** Acquires the group of one mode on several lock paths; see {@link ILockByCurator#tryAcquireAll(Collection, LockMode, Duration)}. */
	static Optional<LockGroup> acquire(ILockByCurator api, Collection<String> paths, LockMode mode, Duration wait) {
		if (paths == null || paths.isEmpty()) {
			throw new IllegalArgumentException("Lock paths " + paths + " must name at least one lock path");
		}
		if (wait == null || wait.isNegative()) {
			throw new IllegalArgumentException("Wait " + ((wait != null) ? Durations.format(wait) : "null")
					+ " for lock paths " + paths + " is invalid: use a duration of zero or more (Duration.ZERO tries once)");
		}
		SortedSet<String> ordered = new TreeSet<>();
		for (String path : paths) {
			ordered.add(LockPaths.normalize(path));
		}
		return acquire(api, ordered.stream().map((path) -> LockRequest.of(path, mode)).toList(), wait);
	}

	/**
	 * Acquires the group of several requests, each with its own mode, name, owner and bound;
	 * see {@link ILockByCurator#tryAcquireAll(List, Duration)}. The one multi-lock loop of zklock:
	 * in canonical order (sorted lock paths), under one overall wait, all or nothing.
	 */
	static Optional<LockGroup> acquire(ILockByCurator api, List<LockRequest> requests, Duration wait) {
		if (requests == null || requests.isEmpty()) {
			throw new IllegalArgumentException("Lock requests " + requests + " must name at least one lock path");
		}
		if (wait == null || wait.isNegative()) {
			throw new IllegalArgumentException("Wait " + ((wait != null) ? Durations.format(wait) : "null")
					+ " for lock requests " + requests + " is invalid: use a duration of zero or more "
					+ "(Duration.ZERO tries once)");
		}
		List<LockRequest> ordered = new ArrayList<>(requests);
		ordered.sort(Comparator.comparing((LockRequest request) -> LockPaths.normalize(request.path())));
		long start = System.nanoTime();
		List<LockHandle> acquired = new ArrayList<>(ordered.size());
		boolean complete = false;
		try {
			for (LockRequest request : ordered) {
				Optional<LockHandle> lock = api.tryAcquire(withinWait(request, wait, start));
				if (lock.isEmpty()) {
					return Optional.empty();
				}
				acquired.add(lock.get());
			}
			complete = true;
			return Optional.of(new LockGroup(acquired));
		}
		finally {
			if (!complete) {
				new LockGroup(acquired).release();
			}
		}
	}

	/**
	 * The locks, in the order they were acquired.
	 * @return the handles, one per distinct lock path
	 */
	public List<LockHandle> locks() {
		return this.locks;
	}

	/**
	 * Whether every lock of the group is still held.
	 * @return {@code true} while all are held
	 */
	public boolean isHeld() {
		return this.locks.stream().allMatch(LockHandle::isHeld);
	}

	/**
	 * Releases every lock, in reverse order of acquisition.
	 * @return the most serious result among the releases: {@link ReleaseResult#LOST} before
	 * {@link ReleaseResult#CLEANUP_PENDING} before the others
	 */
	public ReleaseResult release() {
		ReleaseResult worst = null;
		for (int i = this.locks.size() - 1; i >= 0; i--) {
			ReleaseResult result = this.locks.get(i).release();
			if (worst == null || severity(result) > severity(worst)) {
				worst = result;
			}
		}
		return (worst != null) ? worst : ReleaseResult.ALREADY_RELEASED;
	}

	@Override
	public void close() {
		release();
	}

	/**
	 * The request with what is left of the group's wait, measured on {@link System#nanoTime()}
	 * since {@code startNanos}; a wait too long for a {@code long} of nanoseconds never ends.
	 */
	private static LockRequest withinWait(LockRequest request, Duration wait, long startNanos) {
		long waitNanos;
		try {
			waitNanos = wait.toNanos();
		}
		catch (ArithmeticException ex) {
			return request;
		}
		return request.waitAtMost(Duration.ofNanos(Math.max(0, waitNanos - (System.nanoTime() - startNanos))));
	}

	private static int severity(ReleaseResult result) {
		return switch (result) {
			case LOST -> 3;
			case CLEANUP_PENDING -> 2;
			case RELEASED, STILL_HELD -> 1;
			case ALREADY_RELEASED -> 0;
		};
	}

}
