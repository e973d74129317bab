package io.zklock.fault;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import io.zklock.fault.ensemble.EnsembleProbe;
import io.zklock.fault.ensemble.InProcessEnsemble;
import io.zklock.fault.harness.InJvmClients;
import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.SharedLockByCurator;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

/**
 * Liveness, on a three-member ensemble: a waiter never loses its wake-up to
 * another waiter's clean-up, across engines that share one Curator client too, and a round whose
 * watch something else removed looks at the queue again; a round that watches its blocker again
 * (its socket closed, same session) never takes its own removal for another's, and leaves no watch. The holder's client talks to one member,
 * the waiters' client to another, and a third client only looks. Each waiter waits two minutes, and
 * the test waits {@value #GRANT_PATIENCE_SECONDS} s for it to be granted once the lock is free: a
 * waiter that missed the release would wait out its two minutes on a free lock (forever without a
 * deadline).
 *
 * <p>
 * On main before the fix both failed in every run: the clean-up of the engine whose waiter gave
 * up ({@code HandoffWatch.removeRemaining}: {@code removeAll} of the path, since that engine counted
 * no other watcher of its own) removed every watcher of the ZooKeeper handle on the holder's node,
 * the other engine's included; and a removed persistent watch reached the waiting round as a
 * {@code PersistentWatchRemoved} event, which it dropped. (A writer waiting behind a reader, whose
 * one-shot data watch is removed the same way, was granted on main already: it looks again on any
 * event of that watch, {@code DataWatchRemoved} included.)
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class WaiterWakeUpTests {

	/** Figures and outcomes for the reader of the run (logger io.zklock.fault.report, INFO). */
	private static final Logger REPORT = LoggerFactory.getLogger("io.zklock.fault.report");

	private static final long GRANT_PATIENCE_SECONDS = 30;

	private static final Duration WAITER_WAIT = Duration.ofMinutes(2);

	private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(10);

	private static final long SLOW_LISTING_MILLIS = 400;

	private InProcessEnsemble ensemble;

	private final InJvmClients clients = new InJvmClients();

	private final ExecutorService waiters = Executors.newCachedThreadPool();

	private CuratorFramework observer;

	@BeforeAll
	void start() throws Exception {
		this.ensemble = new InProcessEnsemble(3);
		this.observer = client(2, null);
	}

	@AfterAll
	void stop() {
		this.waiters.shutdownNow();
		this.clients.close();
		this.ensemble.close();
	}

	/**
	 * Two engines on one client ({@code new SharedLockByCurator(client, "/locks")} twice, the
	 * documented constructor without Spring): a reader of each waits behind one writer, and both
	 * watch the writer's node through the client's one ZooKeeper handle. The second engine's reader
	 * gives up; the writer releases; the first engine's reader must be granted.
	 */
	@Test
	void shouldWakeTheReaderOfAnotherEngineOnTheSameClientWhenOneGivesUp() throws Exception {
		String lockPath = "wake-up/two-engines";
		LockHandle writer = new SharedLockByCurator(client(0, null), "/locks")
			.tryAcquire(lockPath, LockMode.WRITE, Duration.ofSeconds(30))
			.orElseThrow();
		WatchRecorder watches = new WatchRecorder();
		CuratorFramework shared = client(1, watches.factory());
		SharedLockByCurator first = new SharedLockByCurator(shared, "/locks");
		SharedLockByCurator second = new SharedLockByCurator(shared, "/locks");

		CompletableFuture<Optional<LockHandle>> reading = waitFor(
				() -> first.tryAcquire(lockPath, LockMode.READ, WAITER_WAIT));
		String blocker = watches.awaitWatches(1, Duration.ofSeconds(30));
		assertThat(second.tryAcquire(lockPath, LockMode.READ, Duration.ofSeconds(2)))
			.as("the second engine's reader, which gives up after 2 s").isEmpty();
		assertThat(watches.count(blocker)).as("watches the two engines' readers set on the writer's node %s", blocker)
			.isEqualTo(2);
		// the second reader's node is gone, so its clean-up (sent before the delete, same session) is done
		awaitQueue(lockPath, 2);

		writer.release();
		LockHandle reader = awaitGrant(reading, "the first engine's READ waiter, after the WRITE holder released",
				shared);
		assertThat(reader.fencingToken()).as("the reader's token").isGreaterThan(writer.fencingToken());
		reader.release();
	}

	/**
	 * Something else on the same ZooKeeper handle removes every watch on the blocker (here the
	 * test, with {@code removeAllWatches}; before the fix, another engine's clean-up did): the
	 * waiting round receives {@code PersistentWatchRemoved}, and must look at the queue again so
	 * that the holder's release still wakes it.
	 */
	@Test
	void shouldGrantAWaiterWhosePersistentWatchWasRemovedOnceTheLockFrees() throws Exception {
		String lockPath = "wake-up/persistent-watch-removed";
		LockHandle holder = new ExclusiveLockByCurator(client(0, null), "/locks")
			.tryAcquire(lockPath, LockMode.EXCLUSIVE, Duration.ofSeconds(30))
			.orElseThrow();
		WatchRecorder watches = new WatchRecorder();
		CuratorFramework client = client(1, watches.factory());
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(client, "/locks");
		CompletableFuture<Optional<LockHandle>> waiting = waitFor(
				() -> locks.tryAcquire(lockPath, LockMode.EXCLUSIVE, WAITER_WAIT));
		String blocker = watches.awaitWatches(1, Duration.ofSeconds(30));

		client.getZookeeperClient().getZooKeeper().removeAllWatches(blocker, Watcher.WatcherType.Any, false);
		holder.release();
		LockHandle next = awaitGrant(waiting, "the EXCLUSIVE waiter whose watch on the holder's node was removed",
				client);
		assertThat(next.fencingToken()).as("the waiter's token").isGreaterThan(holder.fencingToken());
		next.release();
	}

	/**
	 * A waiter's socket closes (same session) while it watches the holder's node: on reconnecting
	 * the round lists again, finds the same blocker, takes off its watch and sets another. Every
	 * listing after that second watch goes {@value #SLOW_LISTING_MILLIS} ms late, and the holder
	 * releases as soon as the second watch's read has answered. The waiter must be granted and leave
	 * no watch behind: before the fix the round took the {@code PersistentWatchRemoved} event of its
	 * own removal for another waiter's, counted its new, live watch out and listed again; that slow
	 * listing found the lock free, and the watch stayed on the member and in the handle for the rest
	 * of the session (the watch the randomized soak with local handoff left once).
	 */
	@Test
	void shouldLeaveNoWatchWhenAWaiterWatchesItsBlockerAgainAfterItsSocketClosed() throws Exception {
		String lockPath = "wake-up/same-blocker-again";
		LockHandle holder = new ExclusiveLockByCurator(client(0, null), "/locks")
			.tryAcquire(lockPath, LockMode.EXCLUSIVE, Duration.ofSeconds(30))
			.orElseThrow();
		RewatchHooks hooks = new RewatchHooks(EnsembleProbe.LOCK_ROOT + "/" + lockPath);
		hooks.listingDelay = Duration.ofMillis(SLOW_LISTING_MILLIS);
		hooks.slowListingsAfterWatches = 2;
		CuratorFramework client = client(1, hooks.factory());
		ZooKeeper handle = client.getZookeeperClient().getZooKeeper();
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(client, "/locks");
		CompletableFuture<Optional<LockHandle>> waiting = waitFor(
				() -> locks.tryAcquire(lockPath, LockMode.EXCLUSIVE, WAITER_WAIT));
		hooks.awaitWatchesAnswered(1, Duration.ofSeconds(30));

		long session = handle.getSessionId();
		handle.getTestable().closeSocket();
		hooks.awaitWatchesAnswered(2, Duration.ofSeconds(30));
		assertThat(client.getZookeeperClient().getZooKeeper().getSessionId()).as("the waiter's session after its socket closed")
			.isEqualTo(session);
		holder.release();

		LockHandle next = awaitGrant(waiting, "the EXCLUSIVE waiter that watched the holder's node again", client);
		assertThat(next.fencingToken()).as("the waiter's token").isGreaterThan(holder.fencingToken());
		next.release();
		String lockNodes = EnsembleProbe.LOCK_ROOT + "/" + lockPath + "/";
		await("no watch left on the lock path's nodes").atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			assertThat(EnsembleProbe.lockWatches(this.ensemble).stream().filter((watch) -> watch.contains(lockNodes)))
				.as("watches the members keep on the lock path's nodes (member:path; %d listing(s) sent late)",
						hooks.slowListings.get())
				.isEmpty();
			assertThat(ZooKeeperHandleWatches.of(handle).stream().filter((path) -> path.startsWith(lockNodes)))
				.as("watchers the waiter's handle keeps on the lock path's nodes").isEmpty();
		});
		REPORT.info("[wake-up] watched the holder's node again after the socket closed: granted " + next
				+ ", no watch left; " + hooks.slowListings.get() + " listing(s) sent " + SLOW_LISTING_MILLIS + " ms late");
	}

	private CompletableFuture<Optional<LockHandle>> waitFor(Supplier<Optional<LockHandle>> acquire) {
		return CompletableFuture.supplyAsync(acquire, this.waiters);
	}

	/**
	 * The waiter's grant, once the lock is free; fails naming what still watches the lock path
	 * (members and the waiter's handle) if none comes within {@value #GRANT_PATIENCE_SECONDS} s.
	 */
	private LockHandle awaitGrant(CompletableFuture<Optional<LockHandle>> waiting, String who,
			CuratorFramework waiterClient) throws Exception {
		try {
			Optional<LockHandle> granted = waiting.get(GRANT_PATIENCE_SECONDS, TimeUnit.SECONDS);
			assertThat(granted).as("%s: its acquire returned without the lock", who).isPresent();
			REPORT.info("[wake-up] " + who + " granted " + granted.get());
			return granted.get();
		}
		catch (TimeoutException ex) {
			return fail("%s was not granted the free lock within %d s (its wait runs %d s): it missed the "
					+ "release. Watches on lock nodes, member:path %s; the waiter's ZooKeeper handle watches %s", who,
					GRANT_PATIENCE_SECONDS, WAITER_WAIT.toSeconds(), EnsembleProbe.lockWatches(this.ensemble),
					ZooKeeperHandleWatches.of(waiterClient.getZookeeperClient().getZooKeeper()));
		}
		catch (ExecutionException ex) {
			return fail("%s failed: %s", who, ex.getCause());
		}
	}

	/** Waits until the lock path holds {@code nodes} lock nodes, as the observer sees it. */
	private void awaitQueue(String lockPath, int nodes) {
		await("%d lock nodes under '%s'".formatted(nodes, lockPath)).atMost(Duration.ofSeconds(30))
			.until(() -> queue(lockPath).size() == nodes);
	}

	private List<String> queue(String lockPath) throws Exception {
		this.observer.sync().forPath("/locks/" + lockPath);
		return this.observer.getChildren().forPath("/locks/" + lockPath);
	}

	/** A client of one member. */
	private CuratorFramework client(int member, ZookeeperFactory handles)
			throws InterruptedException {
		return this.clients.start("127.0.0.1:" + this.ensemble.clientPorts().get(member), SESSION_TIMEOUT,
				Duration.ofSeconds(5), 3, handles);
	}

}
