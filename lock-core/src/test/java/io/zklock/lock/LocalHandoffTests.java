package io.zklock.lock;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.zklock.fixtures.ZooKeeperHandles;
import io.zklock.lock.internal.LocalHandoff;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.zklock.lock.ZkTestSupport.AWAIT;
import static io.zklock.lock.ZkTestSupport.NAMESPACE;
import static io.zklock.lock.ZkTestSupport.ROOT;
import static io.zklock.lock.ZkTestSupport.basePath;
import static io.zklock.lock.ZkTestSupport.lockNodes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Local handoff (lock cohorting): the {@code EXCLUSIVE} and {@code WRITE} acquires of one
 * engine for one lock path share one lock node, handed from holder to local waiter with one
 * {@code multi(check(node), setData(lock path))} whose zxid is the next token; on a real server.
 */
@Timeout(60)
@Tag("slow")
class LocalHandoffTests extends ZkServerTest {

	/** Bounds no test reaches, so that a slow machine never ends a chain by time. */
	private static final LocalHandoff LONG_CHAINS = new LocalHandoff(true, 1000, Duration.ofMinutes(1));

	/** This test's threads, named so that only they are looked at (other classes may leave threads). */
	private final ExecutorService threads = Executors.newCachedThreadPool((task) -> new Thread(task, "cohort-test"));

	@AfterEach
	void stopThreads() {
		this.threads.shutdownNow();
	}

	private LockEngine engine(LocalHandoff handoff) {
		return ZkTestSupport.engine(this.clients.newClient(), ROOT, handoff);
	}

	@Test
	void shouldHandTheNodeToTheNextLocalWaiterWithTheZxidOfTheHandoffWriteAsToken() throws Exception {
		LockEngine engine = engine(LONG_CHAINS);
		CuratorFramework observer = this.clients.newClient();
		LockHandle first = engine.acquire(LockRequest.of("cohort/hand", LockMode.EXCLUSIVE)).orElseThrow();
		long pathVersion = observer.checkExists().forPath(basePath("cohort/hand")).getVersion();
		Future<LockHandle> second = this.threads.submit(() -> engine.acquire(LockRequest.of("cohort/hand",
				LockMode.EXCLUSIVE)).orElseThrow());
		awaitWaiting(engine, 1);
		assertThat(lockNodes(observer, "cohort/hand")).as("the waiter joins the node, creates none").hasSize(1);
		assertThat(first.release()).isEqualTo(ReleaseResult.RELEASED);
		LockHandle next = second.get(20, TimeUnit.SECONDS);
		Stat path = observer.checkExists().forPath(basePath("cohort/hand"));
		assertThat(next.nodePath()).as("same node").isEqualTo(first.nodePath());
		assertThat(next.fencingToken()).isGreaterThan(first.fencingToken()).isEqualTo(path.getMzxid());
		assertThat(path.getVersion()).as("one handoff write, sent when the waiter joined").isEqualTo(pathVersion + 1);
		assertThat(first.state()).isEqualTo(LockState.RELEASED);
		assertThat(next.isHeld()).isTrue();
		assertThat(engine.getHeldLocks()).singleElement()
			.satisfies((held) -> assertThat(held.fencingToken()).isEqualTo(next.fencingToken()));
		next.release();
		await().atMost(AWAIT).until(() -> lockNodes(observer, "cohort/hand").isEmpty());
	}

	@Test
	void shouldCostOneRequestPerLocalHandoff() throws Exception {
		LockEngine engine = engine(LONG_CHAINS);
		LockHandle first = engine.acquire(LockRequest.of("cohort/count", LockMode.WRITE)).orElseThrow();
		long before = ZkTestSupport.serverPacketsReceived(server);
		int waiters = 20;
		List<Future<Long>> done = new ArrayList<>();
		for (int i = 0; i < waiters; i++) {
			done.add(this.threads.submit(() -> {
				try (LockHandle handle = engine.acquire(LockRequest.of("cohort/count", LockMode.WRITE)).orElseThrow()) {
					return handle.fencingToken();
				}
			}));
		}
		awaitWaiting(engine, waiters);
		first.release();
		for (Future<Long> future : done) {
			future.get(20, TimeUnit.SECONDS);
		}
		long requests = ZkTestSupport.serverPacketsReceived(server) - before - 1;
		// 20 handoff writes and the last holder's delete; a ping or two may fall in between
		assertThat(requests).isBetween((long) waiters + 1, (long) waiters + 4);
	}

	@Test
	void shouldNeverLetAReaderJoinAWriterNorHandAReadNode() throws Exception {
		LockEngine engine = engine(LONG_CHAINS);
		CuratorFramework observer = this.clients.newClient();
		LockHandle writer = engine.acquire(LockRequest.of("cohort/modes", LockMode.WRITE)).orElseThrow();
		Future<LockHandle> reader = this.threads.submit(() -> engine.acquire(LockRequest.of("cohort/modes",
				LockMode.READ)).orElseThrow());
		// the reader's node first, so that the EXCLUSIVE node queues behind it
		await().atMost(AWAIT).until(() -> lockNodes(observer, "cohort/modes").size() == 2);
		Future<LockHandle> exclusive = this.threads.submit(() -> engine.acquire(LockRequest.of("cohort/modes",
				LockMode.EXCLUSIVE)).orElseThrow());
		await().atMost(AWAIT).until(() -> lockNodes(observer, "cohort/modes").size() == 3);
		assertThat(reader.isDone()).isFalse();
		writer.release();
		LockHandle read = reader.get(20, TimeUnit.SECONDS);
		assertThat(read.nodePath()).isNotEqualTo(writer.nodePath());
		assertThat(exclusive.isDone()).as("an EXCLUSIVE node waits behind the reader").isFalse();
		read.release();
		LockHandle excl = exclusive.get(20, TimeUnit.SECONDS);
		assertThat(excl.nodePath()).contains("-lock-");
		excl.release();
	}

	@Test
	void shouldKeepThreadOwnedReentrancyAndCallOwnedHoldersApart() throws Exception {
		LockEngine engine = engine(LONG_CHAINS);
		ILockByCurator locks = new ExclusiveLockByCurator(engine);
		LockHandle outer = engine.acquire(LockRequest.of("cohort/reentry", LockMode.EXCLUSIVE)
			.ownedBy(HoldOwner.THREAD)).orElseThrow();
		LockHandle inner = engine.acquire(LockRequest.of("cohort/reentry", LockMode.EXCLUSIVE)
			.ownedBy(HoldOwner.THREAD)).orElseThrow();
		assertThat(inner.fencingToken()).as("a re-entry joins the hold").isEqualTo(outer.fencingToken());
		assertThat(engine.getHeldLocks()).singleElement().satisfies((held) -> assertThat(held.holdCount()).isEqualTo(2));
		assertThatIllegalStateException().isThrownBy(() -> locks.acquire("cohort/reentry", LockMode.EXCLUSIVE));
		inner.release();
		Future<LockHandle> call = this.threads.submit(() -> locks.acquire("cohort/reentry", LockMode.EXCLUSIVE));
		awaitWaiting(engine, 1);
		assertThat(call.isDone()).as("still held by the outer entry").isFalse();
		outer.release();
		LockHandle separate = call.get(20, TimeUnit.SECONDS);
		assertThat(separate.owner()).isEqualTo(HoldOwner.CALL);
		assertThat(separate.fencingToken()).isGreaterThan(outer.fencingToken());
		Future<Optional<LockHandle>> other = this.threads.submit(() -> locks.tryAcquire("cohort/reentry",
				LockMode.EXCLUSIVE, Duration.ofMillis(200)));
		assertThat(other.get(20, TimeUnit.SECONDS)).as("a second call-owned holder waits, never joins").isEmpty();
		separate.release();
	}

	@Test
	void shouldLeaveNothingWhenALocalWaiterGivesUp() throws Exception {
		LockEngine engine = engine(LONG_CHAINS);
		CuratorFramework observer = this.clients.newClient();
		LockHandle held = engine.acquire(LockRequest.of("cohort/give-up", LockMode.EXCLUSIVE)).orElseThrow();
		Future<Optional<LockHandle>> timedOut = this.threads.submit(() -> engine
			.acquire(LockRequest.of("cohort/give-up", LockMode.EXCLUSIVE).waitAtMost(Duration.ofMillis(100))));
		Future<LockHandle> interrupted = this.threads.submit(() -> engine
			.acquire(LockRequest.of("cohort/give-up", LockMode.EXCLUSIVE)).orElseThrow());
		assertThat(timedOut.get(20, TimeUnit.SECONDS)).isEmpty();
		awaitWaiting(engine, 1);
		interrupted.cancel(true);
		// released once the interrupt has taken it out of the FIFO (a grant racing an interrupt wins)
		await().atMost(AWAIT).until(() -> Thread.getAllStackTraces().keySet().stream()
			.filter((thread) -> thread.getName().equals("cohort-test"))
			.noneMatch(LocalHandoffTests::isInLocalWait));
		held.release();
		await().atMost(AWAIT).until(() -> lockNodes(observer, "cohort/give-up").isEmpty());
		assertThat(engine.getHeldLocks()).isEmpty();
		try (LockHandle again = engine.acquire(LockRequest.of("cohort/give-up", LockMode.EXCLUSIVE)
			.waitAtMost(Duration.ofSeconds(5))).orElseThrow()) {
			assertThat(again.fencingToken()).isGreaterThan(held.fencingToken());
		}
	}

	@Test
	void shouldFallBackToTheOrdinaryPathWhenTheHandoffWriteFails() throws Exception {
		LockEngine engine = engine(LONG_CHAINS);
		CuratorFramework observer = this.clients.newClient();
		LockHandle held = engine.acquire(LockRequest.of("cohort/write-fails", LockMode.EXCLUSIVE)).orElseThrow();
		// someone deletes the holder's node (Curator's TN7 says never to): the check of the write
		// sent when the waiter joins fails
		observer.delete().forPath(held.nodePath());
		Future<LockHandle> waiter = this.threads.submit(() -> engine.acquire(LockRequest.of("cohort/write-fails",
				LockMode.EXCLUSIVE)).orElseThrow());
		awaitWaiting(engine, 1);
		held.release();
		LockHandle next = waiter.get(20, TimeUnit.SECONDS);
		assertThat(next.nodePath()).as("a node of its own").isNotEqualTo(held.nodePath());
		assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
		assertThat(lockNodes(observer, "cohort/write-fails")).singleElement()
			.satisfies((name) -> assertThat(next.nodePath()).endsWith(name));
		next.release();
	}

	/**
	 * A failed handoff write ends the chain (docs/lock-protocol.md, "The handoff write"): tokens
	 * written before it are not handed on either; the node goes and the next waiter queues with a
	 * node of its own. The lock path's ACL refuses writes from the third waiter's write on.
	 */
	@Test
	void shouldHandNothingOnOnceAHandoffWriteFailed() throws Exception {
		FailedMultis failures = new FailedMultis();
		LockEngine engine = ZkTestSupport.engine(this.clients.newClient(NAMESPACE, ZooKeeperHandles.factory(failures)),
				ROOT, LONG_CHAINS);
		CuratorFramework observer = this.clients.newClient();
		String path = "cohort/write-failed-later";
		LockHandle held = engine.acquire(LockRequest.of(path, LockMode.EXCLUSIVE)).orElseThrow();
		int version = observer.checkExists().forPath(basePath(path)).getVersion();
		List<Future<LockHandle>> waiters = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			waiters.add(this.threads.submit(() -> engine.acquire(LockRequest.of(path, LockMode.EXCLUSIVE)).orElseThrow()));
			int written = version + i + 1;
			await().atMost(AWAIT).until(() -> observer.checkExists().forPath(basePath(path)).getVersion() == written);
		}
		List<ACL> open = observer.getACL().forPath(basePath(path));
		observer.setACL()
			.withACL(List.of(new ACL(ZooDefs.Perms.READ | ZooDefs.Perms.CREATE | ZooDefs.Perms.DELETE | ZooDefs.Perms.ADMIN,
					ZooDefs.Ids.ANYONE_ID_UNSAFE)))
			.forPath(basePath(path));
		try {
			waiters.add(this.threads.submit(() -> engine.acquire(LockRequest.of(path, LockMode.EXCLUSIVE)).orElseThrow()));
			awaitWaiting(engine, 3);
			// the third waiter's write was refused (its reply arrived) before the holder releases
			await().atMost(AWAIT).until(() -> failures.count.get() == 1);
			held.release();
			LockHandle next = waiters.get(0).get(20, TimeUnit.SECONDS);
			assertThat(next.nodePath()).as("a node of its own, not a token written before the failure")
				.isNotEqualTo(held.nodePath());
			next.release();
			for (Future<LockHandle> waiter : waiters.subList(1, 3)) {
				waiter.get(20, TimeUnit.SECONDS).release();
			}
		}
		finally {
			observer.setACL().withACL(open).forPath(basePath(path));
		}
		await().atMost(AWAIT).until(() -> lockNodes(observer, path).isEmpty());
	}

	/**
	 * A guarded write of a holder in a chain applies only while that holder holds the node: the
	 * holder's transaction is held back at the client while another thread releases its call-owned
	 * handle, and the next local waiter must not be handed the node until the transaction is done.
	 */
	@Test
	void shouldNotHandTheNodeOnWhileAGuardedWriteOfItsHolderRuns() throws Exception {
		StallingMulti stall = new StallingMulti();
		CuratorFramework client = this.clients.newClient(NAMESPACE, ZooKeeperHandles.factory(stall));
		LockEngine engine = ZkTestSupport.engine(client, ROOT, LONG_CHAINS);
		String path = "cohort/guarded";
		client.create().orSetData().creatingParentsIfNeeded().forPath("/guarded/cohort", new byte[0]);
		LockHandle held = engine.acquire(LockRequest.of(path, LockMode.EXCLUSIVE).ownedBy(HoldOwner.CALL))
			.orElseThrow();
		Future<LockHandle> next = this.threads.submit(() -> engine.acquire(LockRequest.of(path, LockMode.EXCLUSIVE))
			.orElseThrow());
		awaitWaiting(engine, 1);
		stall.armed = true;
		Future<?> write = this.threads.submit(() -> GuardedTransaction.commit(client, held,
				client.transactionOp().setData().forPath("/guarded/cohort", "first".getBytes())));
		assertThat(stall.entered.await(20, TimeUnit.SECONDS)).as("the guarded write reached the client").isTrue();

		held.release();
		await().pollDelay(Duration.ofMillis(300)).atMost(AWAIT).until(() -> true);
		assertThat(next).as("the next holder, while the released holder's guarded write is under way").isNotDone();
		stall.release.countDown();
		write.get(20, TimeUnit.SECONDS);
		LockHandle second = next.get(20, TimeUnit.SECONDS);
		assertThat(second.nodePath()).isEqualTo(held.nodePath());
		second.release();
	}

	/** Counts the asynchronous {@code multi} requests of the handle whose reply was a failure. */
	private static final class FailedMultis implements ZooKeeperHandles {

		final AtomicInteger count = new AtomicInteger();

		@Override
		public ZooKeeper newHandle(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly,
				ZKClientConfig config) throws IOException {
			return new ZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly, config) {

				@Override
				public void multi(Iterable<Op> ops, AsyncCallback.MultiCallback callback, Object context) {
					super.multi(ops, (rc, path, ctx, results) -> {
						if (rc != KeeperException.Code.OK.intValue()) {
							FailedMultis.this.count.incrementAndGet();
						}
						callback.processResult(rc, path, ctx, results);
					}, context);
				}

			};
		}

	}

	/** Holds the next synchronous {@code multi} of the handle back until released. */
	private static final class StallingMulti implements ZooKeeperHandles {

		volatile boolean armed;

		final CountDownLatch entered = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		@Override
		public ZooKeeper newHandle(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly,
				ZKClientConfig config) throws IOException {
			return new ZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly, config) {

				@Override
				public List<OpResult> multi(Iterable<Op> ops) throws InterruptedException, KeeperException {
					if (StallingMulti.this.armed) {
						StallingMulti.this.armed = false;
						StallingMulti.this.entered.countDown();
						StallingMulti.this.release.await();
					}
					return super.multi(ops);
				}

			};
		}

	}

	@Test
	void shouldReachTheCurrentHolderWhenTheSessionEndsMidChain() throws Exception {
		CuratorFramework client = this.clients.newClient();
		LockEngine engine = ZkTestSupport.engine(client, ROOT, LONG_CHAINS);
		RecordingListener listener = new RecordingListener();
		engine.addListener(listener);
		CuratorFramework observer = this.clients.newClient();
		LockHandle first = engine.acquire(LockRequest.of("cohort/loss", LockMode.EXCLUSIVE)).orElseThrow();
		Future<LockHandle> waiter = this.threads.submit(() -> engine.acquire(LockRequest.of("cohort/loss",
				LockMode.EXCLUSIVE)).orElseThrow());
		awaitWaiting(engine, 1);
		first.release();
		LockHandle current = waiter.get(20, TimeUnit.SECONDS);
		Future<LockHandle> third = this.threads.submit(() -> engine.acquire(LockRequest.of("cohort/loss",
				LockMode.EXCLUSIVE)).orElseThrow());
		awaitWaiting(engine, 1);
		AtomicBoolean told = new AtomicBoolean();
		current.onLost((handle) -> told.set(true));
		ZkTestSupport.expireSession(server, client);
		await().atMost(AWAIT).until(() -> current.state() == LockState.LOST);
		assertThat(told).isTrue();
		assertThat(listener.types()).contains(RecordingListener.Type.LOST);
		assertThat(current.release()).isEqualTo(ReleaseResult.LOST);
		LockHandle after = third.get(20, TimeUnit.SECONDS);
		assertThat(after.nodePath()).as("a node of the new session").isNotEqualTo(current.nodePath());
		assertThat(after.fencingToken()).isGreaterThan(current.fencingToken());
		assertThat(lockNodes(observer, "cohort/loss")).hasSize(1);
		after.release();
	}

	@Test
	void shouldLetARemoteWaiterInAfterMaxHandoffs() throws Exception {
		long[] tokens = shouldLetARemoteWaiterIn(new LocalHandoff(true, 3, Duration.ofMinutes(1)));
		assertThat(tokens[0]).as("remote token above the chain's last").isGreaterThan(tokens[1]);
	}

	@Test
	void shouldLetARemoteWaiterInAfterMaxTime() throws Exception {
		long[] tokens = shouldLetARemoteWaiterIn(new LocalHandoff(true, Integer.MAX_VALUE, Duration.ofMillis(200)));
		assertThat(tokens[0]).as("remote token above the chain's last").isGreaterThan(tokens[1]);
	}

	/** @return the remote holder's token, and the last local token before its grant */
	private long[] shouldLetARemoteWaiterIn(LocalHandoff bound) throws Exception {
		LockEngine local = engine(bound);
		LockEngine remote = engine(LocalHandoff.on());
		CuratorFramework observer = this.clients.newClient();
		AtomicBoolean stop = new AtomicBoolean();
		AtomicInteger localGrants = new AtomicInteger();
		List<Long> tokens = new CopyOnWriteArrayList<>();
		List<Future<?>> workers = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			workers.add(this.threads.submit(() -> {
				while (!stop.get()) {
					try (LockHandle handle = local.acquire(LockRequest.of("cohort/fair", LockMode.EXCLUSIVE)).orElseThrow()) {
						tokens.add(handle.fencingToken());
						localGrants.incrementAndGet();
						Thread.sleep(5);
					}
				}
				return null;
			}));
		}
		await().atMost(AWAIT).until(() -> localGrants.get() > 8);
		// the local chain never ends by itself: four threads keep waiting on it
		Optional<LockHandle> remoteHold = remote.acquire(LockRequest.of("cohort/fair", LockMode.EXCLUSIVE)
			.waitAtMost(Duration.ofSeconds(20)));
		assertThat(remoteHold).as("the remote waiter gets in").isPresent();
		long[] remoteAndLastLocal = { remoteHold.get().fencingToken(), tokens.get(tokens.size() - 1) };
		remoteHold.get().release();
		stop.set(true);
		for (Future<?> worker : workers) {
			worker.get(20, TimeUnit.SECONDS);
		}
		assertThat(tokens).isSorted().doesNotHaveDuplicates();
		await().atMost(AWAIT).until(() -> lockNodes(observer, "cohort/fair").isEmpty());
		return remoteAndLastLocal;
	}

	@Test
	void shouldIncreaseTokensStrictlyAcrossLocalAndRemoteHolders() throws Exception {
		List<LockEngine> engines = List.of(engine(new LocalHandoff(true, 5, Duration.ofMillis(30))),
				engine(new LocalHandoff(true, 5, Duration.ofMillis(30))), engine(LocalHandoff.off()));
		List<Long> tokens = new CopyOnWriteArrayList<>();
		List<String> nodes = new CopyOnWriteArrayList<>();
		List<CompletableFuture<?>> workers = new ArrayList<>();
		for (LockEngine engine : engines) {
			for (int i = 0; i < 3; i++) {
				LockMode mode = (i == 0) ? LockMode.WRITE : LockMode.EXCLUSIVE;
				workers.add(CompletableFuture.runAsync(() -> {
					for (int round = 0; round < 30; round++) {
						try (LockHandle handle = engine.acquire(LockRequest.of("cohort/tokens", mode)).orElseThrow()) {
							tokens.add(handle.fencingToken());
							nodes.add(handle.nodePath());
						}
					}
				}, this.threads));
			}
		}
		CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(50, TimeUnit.SECONDS);
		assertThat(tokens).hasSize(270).isSorted().doesNotHaveDuplicates();
		assertThat(nodes.stream().distinct().count()).as("nodes: fewer than grants, so handoffs happened")
			.isLessThan(270);
	}

	@Test
	void shouldExcludeACuratorMutexOnTheSamePath() throws Exception {
		LockEngine engine = engine(new LocalHandoff(true, 4, Duration.ofMillis(50)));
		InterProcessMutex curator = new InterProcessMutex(this.clients.newClient(), basePath("cohort/interop"));
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		AtomicInteger curatorGrants = new AtomicInteger();
		List<CompletableFuture<?>> workers = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			workers.add(CompletableFuture.runAsync(() -> {
				for (int round = 0; round < 40; round++) {
					try (LockHandle handle = engine.acquire(LockRequest.of("cohort/interop", LockMode.EXCLUSIVE))
						.orElseThrow()) {
						section(inside, overlaps);
					}
				}
			}, this.threads));
		}
		workers.add(CompletableFuture.runAsync(() -> {
			for (int round = 0; round < 20; round++) {
				try {
					curator.acquire();
					try {
						section(inside, overlaps);
						curatorGrants.incrementAndGet();
					}
					finally {
						curator.release();
					}
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			}
		}, this.threads));
		CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(50, TimeUnit.SECONDS);
		assertThat(overlaps).hasValue(0);
		assertThat(curatorGrants).hasValue(20);
	}

	private static void section(AtomicInteger inside, AtomicInteger overlaps) {
		if (inside.incrementAndGet() != 1) {
			overlaps.incrementAndGet();
		}
		try {
			Thread.sleep(1);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		inside.decrementAndGet();
	}

	@Test
	void shouldRefuseLocalWaitersOnceGrantingStopsAndLeaveNoNode() throws Exception {
		LockEngine engine = engine(LONG_CHAINS);
		CuratorFramework observer = this.clients.newClient();
		LockHandle held = engine.acquire(LockRequest.of("cohort/stop", LockMode.EXCLUSIVE)).orElseThrow();
		List<Future<LockHandle>> waiters = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			waiters.add(this.threads.submit(() -> engine.acquire(LockRequest.of("cohort/stop", LockMode.EXCLUSIVE))
				.orElseThrow()));
		}
		awaitWaiting(engine, 2);
		engine.stopGranting("the test is shutting down");
		held.release();
		for (Future<LockHandle> waiter : waiters) {
			assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> waiter.get(20, TimeUnit.SECONDS)))
				.hasRootCauseInstanceOf(LockAcquisitionException.class)
				.rootCause()
				.hasMessageContaining("the test is shutting down");
		}
		await().atMost(AWAIT).until(() -> lockNodes(observer, "cohort/stop").isEmpty());
		assertThat(engine.getHeldLocks()).isEmpty();
	}

	@Test
	void shouldTakeTheOrdinaryPathWhenOff() throws Exception {
		LockEngine engine = engine(LocalHandoff.off());
		CuratorFramework observer = this.clients.newClient();
		LockHandle first = engine.acquire(LockRequest.of("cohort/off", LockMode.EXCLUSIVE)).orElseThrow();
		Future<LockHandle> second = this.threads.submit(() -> engine.acquire(LockRequest.of("cohort/off",
				LockMode.EXCLUSIVE)).orElseThrow());
		await().atMost(AWAIT).until(() -> lockNodes(observer, "cohort/off").size() == 2);
		first.release();
		LockHandle next = second.get(20, TimeUnit.SECONDS);
		assertThat(next.nodePath()).isNotEqualTo(first.nodePath());
		next.release();
	}

	/** Waits until {@code count} pool threads are parked (waiting in the local FIFO). */
	private void awaitWaiting(LockEngine engine, int count) {
		await().atMost(AWAIT).until(() -> Thread.getAllStackTraces().keySet().stream()
			.filter((thread) -> thread.getName().equals("cohort-test"))
			.filter((thread) -> isInLocalWait(thread))
			.count() >= count);
	}

	private static boolean isInLocalWait(Thread thread) {
		for (StackTraceElement frame : thread.getStackTrace()) {
			if (frame.getClassName().endsWith("LocalWaiter") && frame.getMethodName().equals("await")) {
				return true;
			}
		}
		return false;
	}

}
