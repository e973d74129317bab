package io.zklock.lock;

import java.util.concurrent.atomic.AtomicInteger;

import io.zklock.lock.internal.LocalHandoff;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessLock;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.utils.ZKPaths;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Curator's own mutex tests with locks of both makes on one lock path: {@code makeLock} returns
 * zklock's {@link LockMode#EXCLUSIVE} lock and Curator's {@link InterProcessMutex} in turn (the
 * first call of a test zklock's, the second Curator's, and so on), both on
 * {@code /locks/our-lock}. Curator's base class allows it: it asks {@code makeLock} for each lock
 * and needs only {@code InterProcessLock}.
 *
 * <p>
 * Run, each with one lock of each make or more: {@code test2Clients} (client 1 zklock, client 2
 * Curator), {@code testKilledSession} (mutex 1 zklock, mutex 2 Curator, on one session; which one
 * holds first is a race, and either way the other must get the lock on the new session),
 * {@code testWaitingProcessKilledServer} (two threads; which one makes which lock, and which holds
 * across the server's restart, is a race), {@code testContainerCleanup} (ten threads, five of each
 * make, on a server that reaps containers every 10 ms).
 *
 * <p>
 * Excluded, each overridden below with {@link Disabled}: the tests that make a single lock, which
 * would be zklock's alone and run as such in {@link CuratorOwnMutexTests} ({@code testLocker},
 * {@code testWithNamespace}, {@code testReentrant}, {@code testReentrantSingleLock},
 * {@code testReentrant2Threads}); and, in {@link CuratorOwnMutexTestsBase}, Curator's
 * {@code testWithSchema}, {@code testRevoking} and {@code testPersistentLock}, which never call
 * {@code makeLock}.
 *
 * <p>
 * About 35 s, nearly all of it Curator's waits by design (see {@link CuratorOwnMutexTests}).
 */
@Tag("slow")
class CuratorOwnMixedMutexTests extends CuratorOwnMutexTestsBase {

	private final AtomicInteger made = new AtomicInteger();

	CuratorOwnMixedMutexTests() {
		super(LocalHandoff.off());
	}

	@Override
	protected InterProcessLock makeLock(CuratorFramework client) {
		if (this.made.getAndIncrement() % 2 == 0) {
			return this.zklock.exclusive(client, OUR_LOCK);
		}
		return new InterProcessMutex(client, ZKPaths.makePath(LOCK_BASE_PATH, OUR_LOCK));
	}

	@Override
	@Test
	@Disabled("One lock only, so zklock's alone: runs in CuratorOwnMutexTests")
	public void testLocker() {
	}

	@Override
	@Test
	@Disabled("One lock only, so zklock's alone: runs in CuratorOwnMutexTests")
	public void testWithNamespace() {
	}

	@Override
	@Test
	@Disabled("One lock only, so zklock's alone: runs in CuratorOwnMutexTests")
	public void testReentrant() {
	}

	@Override
	@Test
	@Disabled("One lock only (shared by ten threads), so zklock's alone: runs in CuratorOwnMutexTests")
	public void testReentrantSingleLock() {
	}

	@Override
	@Test
	@Disabled("One lock only (shared by two threads), so zklock's alone: runs in CuratorOwnMutexTests")
	public void testReentrant2Threads() {
	}

}
