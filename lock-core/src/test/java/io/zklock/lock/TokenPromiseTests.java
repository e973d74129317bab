package io.zklock.lock;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.zklock.lock.internal.LocalHandoff;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.zklock.lock.ZkTestSupport.AWAIT;
import static io.zklock.lock.ZkTestSupport.ROOT;
import static io.zklock.lock.ZkTestSupport.awaitQueued;
import static io.zklock.lock.ZkTestSupport.basePath;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a fencing token promises across lock paths (docs/lock-protocol.md, "The
 * fencing token"): no two grants share a token, on one lock path or on several, so that a
 * resource keeping one high-water mark or idempotency key across locks never sees two writers
 * with one token; and a grant whose acquire began after another grant returned, on any lock path,
 * carries the larger token, with local handoff too.
 */
@Timeout(60)
@Tag("slow")
class TokenPromiseTests extends ZkServerTest {

	/** Bounds no test reaches, so that a slow machine never ends a chain by time. */
	private static final LocalHandoff LONG_CHAINS = new LocalHandoff(true, 1000, Duration.ofMinutes(1));

	private final ExecutorService threads = Executors.newCachedThreadPool();

	@AfterEach
	void stopThreads() {
		this.threads.shutdownNow();
	}

	/**
	 * One session holds two lock paths and ends: the server deletes both its nodes at one zxid.
	 * The waiter behind each (the deleted node its only blocker) must not take that zxid both.
	 */
	@Test
	void shouldNotShareATokenAcrossLockPathsWhenOneSessionEndsHoldingBoth() throws Exception {
		CuratorFramework observer = this.clients.newClient();
		CuratorFramework dying = this.clients.newClient();
		ExclusiveLockByCurator holder = new ExclusiveLockByCurator(dying, ROOT);
		holder.acquire("tokens/a", LockMode.EXCLUSIVE);
		holder.acquire("tokens/b", LockMode.EXCLUSIVE);
		ExclusiveLockByCurator onA = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		ExclusiveLockByCurator onB = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		Future<LockHandle> a = this.threads.submit(() -> onA.acquire("tokens/a", LockMode.EXCLUSIVE));
		Future<LockHandle> b = this.threads.submit(() -> onB.acquire("tokens/b", LockMode.EXCLUSIVE));
		awaitQueued(observer, "tokens/a", 2);
		awaitQueued(observer, "tokens/b", 2);

		dying.close();
		LockHandle grantedA = a.get(AWAIT.toSeconds(), TimeUnit.SECONDS);
		LockHandle grantedB = b.get(AWAIT.toSeconds(), TimeUnit.SECONDS);
		assertThat(grantedA.fencingToken()).as("tokens of the two lock paths")
			.isNotEqualTo(grantedB.fencingToken());
		grantedA.release();
		grantedB.release();
	}

	/**
	 * The same when the waiters list: each waits behind two nodes of the ending session (a hold
	 * and a call-owned acquire still waiting), so the deletion it sees is not its only blocker's and
	 * it lists, and each listing's {@code pzxid} is the zxid of the session's end.
	 */
	@Test
	void shouldNotShareATokenAcrossLockPathsWhenTheWaitersListAfterASessionEnds() throws Exception {
		CuratorFramework observer = this.clients.newClient();
		CuratorFramework dying = this.clients.newClient();
		ExclusiveLockByCurator holder = new ExclusiveLockByCurator(dying, ROOT);
		for (String path : new String[] { "tokens/listed-a", "tokens/listed-b" }) {
			holder.acquire(path, LockMode.EXCLUSIVE);
			this.threads.submit(() -> holder.tryAcquire(LockRequest.of(path, LockMode.EXCLUSIVE)
				.ownedBy(HoldOwner.CALL)
				.waitAtMost(Duration.ofMinutes(1))));
			awaitQueued(observer, path, 2);
		}
		ExclusiveLockByCurator onA = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		ExclusiveLockByCurator onB = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		Future<LockHandle> a = this.threads.submit(() -> onA.acquire("tokens/listed-a", LockMode.EXCLUSIVE));
		Future<LockHandle> b = this.threads.submit(() -> onB.acquire("tokens/listed-b", LockMode.EXCLUSIVE));
		awaitQueued(observer, "tokens/listed-a", 3);
		awaitQueued(observer, "tokens/listed-b", 3);

		dying.close();
		LockHandle grantedA = a.get(AWAIT.toSeconds(), TimeUnit.SECONDS);
		LockHandle grantedB = b.get(AWAIT.toSeconds(), TimeUnit.SECONDS);
		assertThat(grantedA.fencingToken()).as("tokens of the two lock paths")
			.isNotEqualTo(grantedB.fencingToken());
		grantedA.release();
		grantedB.release();
	}

	/**
	 * Local handoff, no fault: a handoff write is sent ahead for a local waiter that then gives up,
	 * so its token waits unused. A grant on another lock path returns; then a new acquire of the
	 * first lock path begins and is handed the node. Its token must be above that grant's: a token
	 * written before the acquire began is not.
	 */
	@Test
	void shouldGiveAnAcquireBegunAfterAGrantOnAnotherPathALargerTokenWithLocalHandoff() throws Exception {
		CuratorFramework observer = this.clients.newClient();
		LockEngine engine = ZkTestSupport.engine(this.clients.newClient(), ROOT, LONG_CHAINS);
		LockHandle holder = engine.acquire(LockRequest.of("tokens/chain", LockMode.EXCLUSIVE)).orElseThrow();
		int version = observer.checkExists().forPath(basePath("tokens/chain")).getVersion();
		Optional<LockHandle> gaveUp = engine.acquire(LockRequest.of("tokens/chain", LockMode.EXCLUSIVE)
			.waitAtMost(Duration.ofMillis(500)));
		assertThat(gaveUp).as("the local waiter gave up").isEmpty();
		assertThat(observer.checkExists().forPath(basePath("tokens/chain")).getVersion())
			.as("a handoff write was made for it").isEqualTo(version + 1);

		LockHandle elsewhere = new ExclusiveLockByCurator(this.clients.newClient(), ROOT).acquire("tokens/elsewhere",
				LockMode.EXCLUSIVE);
		Future<LockHandle> next = this.threads
			.submit(() -> engine.acquire(LockRequest.of("tokens/chain", LockMode.EXCLUSIVE)).orElseThrow());
		await().atMost(AWAIT).pollDelay(Duration.ofMillis(200)).until(() -> !next.isDone());
		holder.release();
		LockHandle handed = next.get(AWAIT.toSeconds(), TimeUnit.SECONDS);
		assertThat(handed.nodePath()).as("handed the node").isEqualTo(holder.nodePath());
		assertThat(handed.fencingToken()).as("the token of an acquire begun after the other grant returned")
			.isGreaterThan(elsewhere.fencingToken());
		handed.release();
		elsewhere.release();
	}

}
