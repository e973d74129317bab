package io.zklock.lock;

import io.zklock.lock.internal.LocalHandoff;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessLock;
import org.junit.jupiter.api.Tag;

/**
 * Curator's own mutex tests run against zklock: every lock they make is zklock's
 * {@link LockMode#EXCLUSIVE} lock on {@code /locks/our-lock} through
 * {@link ILockByCurator#asInterProcessLock}, one engine per Curator client, local handoff off
 * (the default).
 *
 * <p>
 * Run, from Curator's {@code TestInterProcessMutexBase}: {@code testLocker},
 * {@code testWaitingProcessKilledServer}, {@code testKilledSession},
 * {@code testContainerCleanup}, {@code testWithNamespace}, {@code testReentrantSingleLock},
 * {@code testReentrant2Threads}, {@code testReentrant}, {@code test2Clients}.
 *
 * <p>
 * Excluded (in {@link CuratorOwnMutexTestsBase}, which says why at more length): Curator's
 * {@code testWithSchema}, {@code testRevoking} and {@code testPersistentLock}, which build
 * Curator's own {@code InterProcessMutex} (schema, revocation, persistent lock nodes) and never
 * call {@code makeLock}.
 *
 * <p>
 * About a minute, nearly all of it waits that Curator's tests make by design and that take as
 * long with Curator's own mutex: a second holder in {@code test2Clients} and a second thread in
 * {@code testReentrant2Threads} wait out 10 s, and {@code testKilledSession} waits until the
 * server expires the old session (15 s; less when ZooKeeper's client happens to close the old
 * session on the server as the test expires it on the client side).
 */
@Tag("slow")
class CuratorOwnMutexTests extends CuratorOwnMutexTestsBase {

	CuratorOwnMutexTests() {
		super(LocalHandoff.off());
	}

	@Override
	protected InterProcessLock makeLock(CuratorFramework client) {
		return this.zklock.exclusive(client, OUR_LOCK);
	}

}
