package io.zklock.lock;

import io.zklock.lock.internal.LocalHandoff;

import org.apache.curator.framework.recipes.locks.TestInterProcessMutex;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Curator's own mutex tests ({@code TestInterProcessMutex} of curator-recipes' test jar, with
 * the tests of its base {@code TestInterProcessMutexBase}), for subclasses whose
 * {@code makeLock} returns zklock's locks ({@link #zklock}) on Curator's lock path
 * {@code /locks/our-lock}. Curator starts a fresh {@code TestingServer} for each test and closes
 * it after.
 *
 * <p>
 * Excluded here, for every subclass, each overridden below with {@link Disabled}: the three
 * tests of {@code TestInterProcessMutex} itself, which build Curator's own
 * {@code InterProcessMutex} rather than call {@code makeLock}, so no zklock lock would take part:
 * <ul>
 * <li>{@code testWithSchema}: Curator's mutex on {@code /foo} under a client with a
 * {@code SchemaSet};</li>
 * <li>{@code testRevoking}: Curator's revocation ({@code makeRevocable}, {@code Revoker},
 * {@code getParticipantNodes}), which zklock does not have;</li>
 * <li>{@code testPersistentLock}: a Curator {@code LockInternalsDriver} that makes PERSISTENT lock
 * nodes; zklock's lock nodes are always ephemeral.</li>
 * </ul>
 * Each test has two minutes: Curator's tests wait on futures without a bound of their own.
 */
@Timeout(120)
abstract class CuratorOwnMutexTestsBase extends TestInterProcessMutex {

	/** The lock path of {@code TestInterProcessMutex} under its {@code LOCK_BASE_PATH}. */
	static final String OUR_LOCK = "our-lock";

	/** zklock's locks for {@code makeLock}: one engine per Curator client. */
	final CuratorTestLocks zklock;

	CuratorOwnMutexTestsBase(LocalHandoff localHandoff) {
		this.zklock = new CuratorTestLocks(LOCK_BASE_PATH, localHandoff);
	}

	@AfterEach
	void closeEngines() {
		this.zklock.close();
	}

	@Override
	@Test
	@Disabled("Curator-only: builds Curator's InterProcessMutex on a SchemaSet client; no zklock lock in it")
	public void testWithSchema() {
	}

	@Override
	@Test
	@Disabled("Curator-only: revocation (makeRevocable, Revoker) of Curator's InterProcessMutex; zklock has none")
	public void testRevoking() {
	}

	@Override
	@Test
	@Disabled("Curator-only: a Curator lock driver making PERSISTENT lock nodes; zklock's are always ephemeral")
	public void testPersistentLock() {
	}

}
