package io.zklock.test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.stream.Collectors;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.LockContext;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockState;
import io.zklock.lock.event.HeldLock;
import org.jspecify.annotations.Nullable;

/**
 * Assertions, made inside a method, that it runs under a {@link DistributedLock}: they catch a
 * method that is called past its Spring proxy (from the same object, or on an instance Spring
 * did not make), or that locks another path or mode than the test expects. This class ships in
 * the test artifact, so call it from test code, for example from a test's stand-in for the
 * resource the lock protects:
 *
 * <pre class="code">
 * &#064;Bean
 * &#064;Primary
 * ShippingLedger checkingLedger() {
 *     return new ShippingLedger() {
 *         &#064;Override
 *         public void recordShipment(String orderId, long fencingToken) {
 *             LockAssert.assertLocked("orders/" + orderId, LockMode.EXCLUSIVE);
 *             super.recordShipment(orderId, fencingToken);
 *         }
 *     };
 * }
 * </pre>
 *
 * They see the locks of annotated calls running on the current thread ({@link LockContext}),
 * and the locks acquired on the current thread through an {@link ILockByCurator} that
 * {@link #watch(ILockByCurator) they watch}: thread-owned ones
 * ({@link ILockByCurator#acquireDistributedLock(String)}, {@link ILockByCurator#asLock(String)})
 * and call-owned ones ({@link ILockByCurator#acquire(String, LockMode)}) alike. In a Spring test
 * they watch every {@link ILockByCurator} bean of the test's context. A failed assertion throws
 * {@link AssertionError} naming what the current thread holds. Thread-safe.
 */
public final class LockAssert {

	/** The lock APIs whose holds are seen, weakly held so that a closed context's go away. */
	private static final Set<ILockByCurator> watched = Collections
		.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

	private LockAssert() {
	}

	/**
	 * Makes the assertions see the locks acquired through {@code locks} on the thread that
	 * asserts. A Spring test does this for every {@link ILockByCurator} bean of its context;
	 * call it for one made elsewhere (an {@code ApplicationContextRunner}'s, a plain
	 * {@code LockEngine}'s). Held weakly: it does not keep {@code locks} alive.
	 * @param locks the lock API, one that reports its holds ({@link ILockByCurator#heldLocks()})
	 * @throws IllegalArgumentException if {@code locks} is {@code null}
	 */
	public static void watch(ILockByCurator locks) {
		if (locks == null) {
			throw new IllegalArgumentException("The ILockByCurator to watch must not be null");
		}
		watched.add(locks);
	}

	/**
	 * Asserts that the current thread runs under a lock that is still held: inside a
	 * {@link DistributedLock} call, or after acquiring one on this thread through a watched
	 * {@link ILockByCurator}.
	 * @return the innermost annotated call's lock, or else the lock acquired last on this thread
	 * (a read-only view of it, which does not release)
	 * @throws AssertionError if this thread holds no lock, or its lock was lost
	 */
	public static LockHandle assertLocked() {
		List<LockHandle> locks = currentLocks();
		if (locks.isEmpty()) {
			throw new AssertionError("Expected to run under a lock, but " + describe(locks));
		}
		return held(locks.get(locks.size() - 1));
	}

	/**
	 * Asserts that the current thread runs under the given lock path, in any mode.
	 * @param lockPath the lock path relative to the lock root, such as {@code "orders/42"}
	 * @return the lock
	 * @throws AssertionError if this thread holds no lock on that path (through an annotated
	 * call or a watched {@link ILockByCurator}), or its lock was lost
	 */
	public static LockHandle assertLocked(String lockPath) {
		return assertLocked(lockPath, null);
	}

	/**
	 * Asserts that the current thread runs under the given lock path in the given mode.
	 * @param lockPath the lock path relative to the lock root, such as {@code "orders/42"}
	 * @param mode the expected mode, or {@code null} for any mode
	 * @return the lock: an annotated call's, or a read-only view of one acquired through an
	 * {@link ILockByCurator}
	 * @throws AssertionError if this thread holds no lock on that path in that mode (through an
	 * annotated call or a watched {@link ILockByCurator}), or its lock was lost
	 */
	public static LockHandle assertLocked(String lockPath, @Nullable LockMode mode) {
		String expected = normalize(lockPath);
		List<LockHandle> locks = currentLocks();
		for (int i = locks.size() - 1; i >= 0; i--) {
			LockHandle lock = locks.get(i);
			if (lock.lockPath().equals(expected) && (mode == null || lock.mode() == mode)) {
				return held(lock);
			}
		}
		throw new AssertionError("Expected to run under lock path '" + expected + "'"
				+ ((mode != null) ? " in mode " + mode : "") + ", but " + describe(locks));
	}

	/**
	 * Asserts that the current thread does not hold the given lock path, through an annotated
	 * call or a watched {@link ILockByCurator}.
	 * @param lockPath the lock path relative to the lock root, such as {@code "orders/42"}
	 * @throws AssertionError if this thread holds it
	 */
	public static void assertNotLocked(String lockPath) {
		String expected = normalize(lockPath);
		List<LockHandle> locks = currentLocks();
		if (locks.stream().anyMatch((lock) -> lock.lockPath().equals(expected))) {
			throw new AssertionError("Expected not to run under lock path '" + expected + "', but " + describe(locks));
		}
	}

	private static LockHandle held(LockHandle lock) {
		if (!lock.isHeld()) {
			throw new AssertionError("The lock on '" + lock.lockPath() + "' (token " + lock.fencingToken()
					+ ") is no longer held: " + lock.state());
		}
		return lock;
	}

	/**
	 * The locks of this thread: those acquired on it through the watched lock APIs, oldest
	 * first, then those of its annotated calls, outermost first.
	 */
	private static List<LockHandle> currentLocks() {
		long thread = Thread.currentThread().getId();
		List<HeldLockView> acquired = new ArrayList<>();
		List<ILockByCurator> apis;
		synchronized (watched) {
			apis = new ArrayList<>(watched);
		}
		List<LockHandle> annotated = LockContext.currentLocks();
		Set<String> seen = new HashSet<>();
		annotated.forEach((lock) -> seen.add(lock.nodePath()));
		for (ILockByCurator api : apis) {
			List<HeldLock> holds;
			try {
				holds = api.heldLocks();
			}
			catch (UnsupportedOperationException ex) {
				continue;
			}
			for (HeldLock held : holds) {
				// several beans may share one engine; an annotated call's hold is listed as such
				if (held.holderThreadId() == thread && held.state() != LockState.RELEASED
						&& seen.add(held.nodePath())) {
					acquired.add(new HeldLockView(api, held));
				}
			}
		}
		acquired.sort(Comparator.comparing(LockHandle::acquiredAt));
		List<LockHandle> locks = new ArrayList<>(acquired);
		locks.addAll(annotated);
		return locks;
	}

	private static String describe(List<LockHandle> locks) {
		if (locks.isEmpty()) {
			return "thread '" + Thread.currentThread().getName() + "' holds no lock: no annotated call runs on it, "
					+ "and no lock was acquired on it through an ILockByCurator LockAssert watches (the ILockByCurator "
					+ "beans of a Spring test; LockAssert.watch for others). If the method is annotated, is it called "
					+ "through its Spring proxy (not from the same object)?";
		}
		return "thread '" + Thread.currentThread().getName() + "' holds " + locks.stream()
			.map((lock) -> (lock instanceof HeldLockView) ? lock.toString()
					: lock.mode() + " '" + lock.lockPath() + "' (annotated call)")
			.collect(Collectors.joining(", "));
	}

	private static String normalize(String lockPath) {
		if (lockPath == null || lockPath.isBlank()) {
			throw new IllegalArgumentException("Lock path must not be null or blank, was '" + lockPath + "'");
		}
		String path = lockPath.strip();
		while (path.startsWith("/")) {
			path = path.substring(1);
		}
		while (path.endsWith("/")) {
			path = path.substring(0, path.length() - 1);
		}
		return path;
	}

}
