package io.zklock.lock;

import java.time.Duration;

import io.zklock.lock.internal.LocalHandoff;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessLock;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Curator's own mutex tests against zklock with local handoff on (lock cohorting): the threads of
 * one client that wait for {@code /locks/our-lock} join the lock node of the engine's holder and
 * get it handed on with one write, instead of queueing nodes of their own. The chain bounds are
 * set beyond anything the tests reach (1,000 handoffs, one minute), so that every local waiter is
 * served by a handoff: {@code testReentrantSingleLock} hands one node through ten threads,
 * {@code testReentrant2Threads} has a local waiter give up after 10 s,
 * {@code testWaitingProcessKilledServer} restarts the server while one thread holds and another
 * waits attached, and {@code testContainerCleanup} runs ten threads through one chain before the
 * containers must be reaped, and {@code testKilledSession} expires the session while one thread
 * holds and another waits attached: the chain ends with its session and the waiter queues anew on
 * the new session (before a fix to local handoff it waited for the lost holder's release, and this test
 * failed). Also run: {@code testLocker}, {@code testWithNamespace}, {@code testReentrant} (one
 * thread, no local waiter; cheap).
 *
 * <p>
 * Excluded, each overridden below with {@link Disabled}:
 * <ul>
 * <li>{@code test2Clients}: its two locks are on two clients (two engines), so no waiter is local
 * and local handoff never acts; it runs in {@link CuratorOwnMutexTests}.</li>
 * <li>In {@link CuratorOwnMutexTestsBase}: Curator's {@code testWithSchema}, {@code testRevoking}
 * and {@code testPersistentLock}, which never call {@code makeLock}.</li>
 * </ul>
 *
 * <p>
 * About 20 s, nearly all of it the 10 s wait of {@code testReentrant2Threads} that Curator's test
 * makes by design.
 */
@Tag("slow")
class CuratorOwnMutexLocalHandoffTests extends CuratorOwnMutexTestsBase {

	CuratorOwnMutexLocalHandoffTests() {
		super(new LocalHandoff(true, 1000, Duration.ofMinutes(1)));
	}

	@Override
	protected InterProcessLock makeLock(CuratorFramework client) {
		return this.zklock.exclusive(client, OUR_LOCK);
	}

	@Override
	@Test
	@Disabled("Two clients, two engines: no local waiter, so local handoff never acts; runs in CuratorOwnMutexTests")
	public void test2Clients() {
	}

}
