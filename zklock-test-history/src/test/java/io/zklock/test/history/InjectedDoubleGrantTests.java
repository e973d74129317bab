package io.zklock.test.history;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockEngine;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checker against a real lock with a double grant injected: a deliberately broken lock
 * wrapper lets a second instance in while the first holds the lock (it locks another
 * ZooKeeper path under the same lock path), once per round. Every round must be flagged, from
 * the work recorded where it runs and from what the engines' listeners report; with zklock's
 * own lock in its place, none.
 */
@Timeout(120)
@Tag("slow")
class InjectedDoubleGrantTests {

	private static final int ROUNDS = 20;

	private static final String LOCK_PATH = "orders/1";

	private static TestingServer server;

	private static final List<CuratorFramework> clients = new ArrayList<>();

	private static final List<ExecutorService> executors = new ArrayList<>();

	private static LockEngine first;

	private static LockEngine second;

	private static LockEngine elsewhere;

	@BeforeAll
	static void start() throws Exception {
		server = new TestingServer(true);
		first = new LockEngine(client(), "/locks");
		second = new LockEngine(client(), "/locks");
		// the broken wrapper's lock nodes: the same lock path under another lock root
		elsewhere = new LockEngine(client(), "/broken-locks");
	}

	@AfterAll
	static void stop() throws Exception {
		for (LockEngine engine : List.of(first, second, elsewhere)) {
			engine.close();
		}
		clients.forEach(CuratorFramework::close);
		executors.forEach(ExecutorService::shutdownNow);
		server.close();
	}

	@Test
	void shouldFlagEveryRoundOfAnInjectedDoubleGrant() throws Exception {
		LockHistory reported = reportedByTheEngines();
		ILockByCurator broken = new ExclusiveLockByCurator(elsewhere);
		int flagged = 0;
		for (int round = 0; round < ROUNDS; round++) {
			LockHistory history = new LockHistory();
			runRound(history, broken, true);
			CheckResult result = history.check();
			if (!result.overlaps().isEmpty()) {
				flagged++;
			}
			assertThat(result.overlaps()).as("round %d", round).hasSize(1);
			assertThat(result.overlaps().get(0).describe(result.origin())).contains("Lock path 'orders/1' held twice")
				.contains("by app-1 on thread 'holder-1'")
				.contains("by app-2 on thread 'holder-2'");
		}
		CheckResult fromListeners = reported.check();
		System.out.println("Injected double grant flagged in " + flagged + "/" + ROUNDS + " rounds from the work, "
				+ fromListeners.overlaps().size() + "/" + ROUNDS + " from the engines' listeners");
		assertThat(flagged).isEqualTo(ROUNDS);
		assertThat(fromListeners.overlaps()).as("the engines' own grants and release starts").hasSize(ROUNDS)
			.allSatisfy((overlap) -> assertThat(List.of(overlap.first().holder(), overlap.second().holder()))
				.containsExactly("app-1", "app-2"));
		fromListeners.assertFenced();
	}

	@Test
	void shouldFlagNoRoundOfZklocksOwnLock() throws Exception {
		LockHistory reported = reportedByTheEngines();
		ILockByCurator good = new ExclusiveLockByCurator(second);
		for (int round = 0; round < ROUNDS; round++) {
			LockHistory history = new LockHistory();
			runRound(history, good, false);
			CheckResult result = history.check().assertSafe();
			assertThat(result.grants()).isEqualTo(2);
		}
		CheckResult fromListeners = reported.check().assertSafe();
		assertThat(fromListeners.grants()).as("grants the engines reported").isEqualTo(2 * ROUNDS);
	}

	/** A history of what the engines report from now on, through listeners added for this test. */
	private static LockHistory reportedByTheEngines() {
		LockHistory reported = new LockHistory();
		first.addListener(reported.listener("app-1"));
		second.addListener(reported.listener("app-2"));
		elsewhere.addListener(reported.listener("app-2"));
		return reported;
	}

	/**
	 * One round: app-1 takes zklock's lock and works; app-2 asks {@code rival} for the same lock
	 * path once app-1 holds it. With a broken rival, app-1 works on until app-2 is in; with a
	 * correct one, app-1 works 20 ms after app-2 began to acquire, then releases.
	 */
	private static void runRound(LockHistory history, ILockByCurator rival, boolean rivalIsBroken)
			throws Exception {
		ILockByCurator locks = new ExclusiveLockByCurator(first);
		CountDownLatch firstHolds = new CountDownLatch(1);
		CountDownLatch secondAsks = new CountDownLatch(1);
		CountDownLatch secondWorks = new CountDownLatch(1);
		CompletableFuture<Void> holder1 = run("holder-1", () -> {
			try (LockHandle lock = locks.acquire(LOCK_PATH, LockMode.EXCLUSIVE); LockHistory.Section work = history.enter("app-1", lock)) {
				firstHolds.countDown();
				secondAsks.await(10, TimeUnit.SECONDS);
				if (rivalIsBroken) {
					assertThat(secondWorks.await(10, TimeUnit.SECONDS)).as("the broken lock let app-2 in").isTrue();
				}
				else {
					Thread.sleep(20); // work
				}
			}
		});
		CompletableFuture<Void> holder2 = run("holder-2", () -> {
			firstHolds.await(10, TimeUnit.SECONDS);
			secondAsks.countDown();
			try (LockHandle lock = rival.acquire(LOCK_PATH, LockMode.EXCLUSIVE); LockHistory.Section work = history.enter("app-2", lock)) {
				secondWorks.countDown();
			}
		});
		CompletableFuture.allOf(holder1, holder2).get(30, TimeUnit.SECONDS);
	}

	private static CompletableFuture<Void> run(String threadName, Work work) {
		ExecutorService executor = Executors.newSingleThreadExecutor((r) -> new Thread(r, threadName));
		executors.add(executor);
		return CompletableFuture.runAsync(() -> {
			try {
				work.run();
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}, executor);
	}

	private static CuratorFramework client() throws InterruptedException {
		ExecutorService safeService = Executors.newSingleThreadExecutor((r) -> {
			Thread thread = new Thread(r, "test-curator-safe-notify");
			thread.setDaemon(true);
			return thread;
		});
		executors.add(safeService);
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(server.getConnectString())
			.sessionTimeoutMs(30_000)
			.connectionTimeoutMs(10_000)
			.retryPolicy(new RetryOneTime(100))
			.namespace("history-tests")
			.runSafeService(safeService)
			.build();
		client.start();
		assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).as("connected").isTrue();
		clients.add(client);
		return client;
	}

	@FunctionalInterface
	private interface Work {

		void run() throws Exception;

	}

}
