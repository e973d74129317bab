package io.zklock.test;

import java.util.List;
import java.util.stream.Collectors;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.LockContext;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
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
 * They read {@link LockContext}, so they see the locks of annotated calls running on the
 * current thread. A failed assertion throws {@link AssertionError} naming what is held.
 */
public final class LockAssert {

	private LockAssert() {
	}

	/**
	 * Asserts that the current thread runs inside a {@link DistributedLock} call whose lock is
	 * still held.
	 * @return the innermost lock
	 * @throws AssertionError if no annotated call runs on this thread, or its lock was lost
	 */
	public static LockHandle assertLocked() {
		LockHandle lock = LockContext.currentLock()
			.orElseThrow(() -> new AssertionError("Expected to run under a @DistributedLock, but no lock is held by "
					+ "an annotated call on thread '" + Thread.currentThread().getName() + "'; is the method called "
					+ "through its Spring proxy (not from the same object)?"));
		return held(lock);
	}

	/**
	 * Asserts that the current thread runs under the given lock path, in any mode.
	 * @param lockPath the lock path relative to the lock root, such as {@code "orders/42"}
	 * @return the lock
	 * @throws AssertionError if no annotated call on this thread holds that lock path, or its
	 * lock was lost
	 */
	public static LockHandle assertLocked(String lockPath) {
		return assertLocked(lockPath, null);
	}

	/**
	 * Asserts that the current thread runs under the given lock path in the given mode.
	 * @param lockPath the lock path relative to the lock root, such as {@code "orders/42"}
	 * @param mode the expected mode, or {@code null} for any mode
	 * @return the lock
	 * @throws AssertionError if no annotated call on this thread holds that lock path in that
	 * mode, or its lock was lost
	 */
	public static LockHandle assertLocked(String lockPath, @Nullable LockMode mode) {
		String expected = normalize(lockPath);
		List<LockHandle> locks = LockContext.currentLocks();
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
	 * Asserts that no annotated call on the current thread holds the given lock path.
	 * @param lockPath the lock path relative to the lock root, such as {@code "orders/42"}
	 * @throws AssertionError if an annotated call on this thread holds it
	 */
	public static void assertNotLocked(String lockPath) {
		String expected = normalize(lockPath);
		List<LockHandle> locks = LockContext.currentLocks();
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

	private static String describe(List<LockHandle> locks) {
		if (locks.isEmpty()) {
			return "no lock is held by an annotated call on thread '" + Thread.currentThread().getName()
					+ "'; is the method called through its Spring proxy (not from the same object)?";
		}
		return "the annotated calls on this thread hold " + locks.stream()
			.map((lock) -> lock.mode() + " '" + lock.lockPath() + "'")
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
