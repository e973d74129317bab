package io.zklock.lock;

import java.util.List;

import io.zklock.lock.internal.LocalHandoff;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessLock;
import org.apache.curator.framework.recipes.locks.InterProcessMultiLock;
import org.apache.curator.framework.recipes.locks.TestInterProcessMultiMutex;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Curator's own multi-lock tests ({@code TestInterProcessMultiMutex} of curator-recipes' test jar,
 * with the tests of its base {@code TestInterProcessMutexBase}) with Curator's
 * {@link InterProcessMultiLock} over two zklock locks, the use
 * {@link ILockByCurator#asInterProcessLock} promises: {@code makeLock} returns a multi-lock of
 * zklock's {@link LockMode#EXCLUSIVE} locks on {@code /locks/our-lock-1} and
 * {@code /locks/our-lock-2} (Curator's own lock paths of that test), one engine per Curator client,
 * local handoff off. Curator starts a fresh {@code TestingServer} for each test.
 *
 * <p>
 * Run, from {@code TestInterProcessMutexBase}: {@code testLocker}, {@code testReentrant},
 * {@code testWithNamespace}, {@code testReentrantSingleLock} (ten threads through one multi-lock),
 * {@code testContainerCleanup} (ten threads, two lock paths, containers reaped after),
 * {@code testWaitingProcessKilledServer} (the server restarts while one thread holds both locks
 * and another waits).
 *
 * <p>
 * Excluded, each overridden below with {@link Disabled}:
 * <ul>
 * <li>{@code testSomeReleasesFail} and {@code testSomeLocksFailToLock}, the two tests of
 * {@code TestInterProcessMultiMutex} itself: they check {@code InterProcessMultiLock}'s own
 * handling of a failing member over Curator's {@code InterProcessMutex} and a stub lock that
 * throws, and never call {@code makeLock}, so no zklock lock would take part;</li>
 * <li>{@code test2Clients}, {@code testKilledSession} and {@code testReentrant2Threads}: over a
 * multi-lock each has one waiter blocked on the first lock path while the other lock holds both,
 * then taking both in turn (or giving up), the zklock paths they take over one lock in
 * {@link CuratorOwnMutexTests}, where they run; here they would add about 37 s of Curator's fixed
 * waits (12 s, 15 s and 10 s) to the suite.</li>
 * </ul>
 *
 * <p>
 * About 10 s. Each test has two minutes: Curator's tests wait on futures without a bound of their
 * own.
 */
@Timeout(120)
@Tag("slow")
class CuratorOwnMultiMutexTests extends TestInterProcessMultiMutex {

	private final CuratorTestLocks zklock = new CuratorTestLocks(LOCK_BASE_PATH, LocalHandoff.off());

	@Override
	protected InterProcessLock makeLock(CuratorFramework client) {
		return new InterProcessMultiLock(
				List.of(this.zklock.exclusive(client, "our-lock-1"), this.zklock.exclusive(client, "our-lock-2")));
	}

	@AfterEach
	void closeEngines() {
		this.zklock.close();
	}

	@Override
	@Test
	@Disabled("Curator-only: InterProcessMultiLock over Curator's InterProcessMutex and a throwing stub; no zklock lock")
	public void testSomeReleasesFail() {
	}

	@Override
	@Test
	@Disabled("Curator-only: InterProcessMultiLock over Curator's InterProcessMutex and a throwing stub; no zklock lock")
	public void testSomeLocksFailToLock() {
	}

	@Override
	@Test
	@Disabled("Same zklock path as over one lock (runs in CuratorOwnMutexTests); 12 s of Curator's fixed waits")
	public void test2Clients() {
	}

	@Override
	@Test
	@Disabled("Same zklock path as over one lock (runs in CuratorOwnMutexTests); 15 s until the old session expires")
	public void testKilledSession() {
	}

	@Override
	@Test
	@Disabled("Same zklock path as over one lock (runs in CuratorOwnMutexTests); a 10 s wait that must run out")
	public void testReentrant2Threads() {
	}

}
