package io.zklock.lock;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.zklock.lock.ZkTestSupport.AWAIT;
import static io.zklock.lock.ZkTestSupport.NAMESPACE;
import static io.zklock.lock.ZkTestSupport.ROOT;
import static io.zklock.lock.ZkTestSupport.awaitQueued;
import static io.zklock.lock.ZkTestSupport.basePath;
import static io.zklock.lock.ZkTestSupport.lockNodes;
import static io.zklock.lock.ZkTestSupport.serverLockWatches;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A waiter's watch on its blocker and its clean-up, on a real server:
 * a waiter that gives up never takes away the wake-up of another waiter watching the same node
 * through the same ZooKeeper handle, also one of another engine on that client; a round whose
 * watch something else removed looks at the queue again; a waiter that gives up while the
 * ensemble is away leaves no watch for the next connection to set again; and a round that watches
 * its blocker a second time neither counts out its new watch for its own removal of the first nor
 * trusts a first watch lost with its connection.
 */
@Timeout(90)
@Tag("slow")
class WatchCleanupTests extends ZkServerTest {

	private static final Duration SHORT = Duration.ofMillis(300);

	/**
	 * Two engines on one client (the documented constructor, twice): a reader of each waits
	 * behind one writer and both watch the writer's node. The second gives up; the first must still
	 * see the release. Before the fix the give-up removed every watcher of the handle on that node,
	 * and the first reader waited on a free lock until its deadline, forever without one.
	 */
	@Test
	void shouldWakeAWaiterOfAnotherEngineOnTheSameClientWhenOneGivesUp() throws Exception {
		String path = "watch/two-engines";
		CuratorFramework observer = this.clients.newClient();
		LockHandle writer = new SharedLockByCurator(this.clients.newClient(), ROOT).acquire(path, LockMode.WRITE);
		CuratorFramework shared = this.clients.newClient();
		SharedLockByCurator first = new SharedLockByCurator(shared, ROOT);
		SharedLockByCurator second = new SharedLockByCurator(shared, ROOT);
		Future<LockHandle> waiting = this.clients.background(() -> first.acquire(path, LockMode.READ));
		awaitQueued(observer, path, 2);
		await().atMost(AWAIT).until(() -> serverLockWatches(server).size() == 1);

		assertThat(second.tryAcquire(path, LockMode.READ, SHORT)).as("the other engine's reader gives up").isEmpty();
		awaitQueued(observer, path, 2);
		writer.release();

		LockHandle reader = waiting.get(AWAIT.toSeconds(), TimeUnit.SECONDS);
		assertThat(reader.isHeld()).isTrue();
		reader.release();
		await().atMost(AWAIT).until(() -> serverLockWatches(server).isEmpty());
	}

	/**
	 * Something else on the same ZooKeeper handle removes every watch on the blocker (here the
	 * test itself, as another engine's clean-up did before): the waiting round receives the
	 * removal and looks again, so the release still wakes it.
	 */
	@Test
	void shouldLookAgainWhenTheWatchOfAWaitingRoundIsRemoved() throws Exception {
		String path = "watch/removed-exclusive";
		CuratorFramework observer = this.clients.newClient();
		LockHandle holder = new ExclusiveLockByCurator(this.clients.newClient(), ROOT).acquire(path,
				LockMode.EXCLUSIVE);
		CuratorFramework client = this.clients.newClient();
		ExclusiveLockByCurator waiter = new ExclusiveLockByCurator(client, ROOT);
		Future<LockHandle> waiting = this.clients.background(() -> waiter.acquire(path, LockMode.EXCLUSIVE));
		awaitQueued(observer, path, 2);
		await().atMost(AWAIT).until(() -> serverLockWatches(server).size() == 1);

		removeAllWatches(client, path, holder.nodePath());
		await().atMost(AWAIT).until(() -> serverLockWatches(server).size() == 1);
		holder.release();

		LockHandle next = waiting.get(AWAIT.toSeconds(), TimeUnit.SECONDS);
		assertThat(next.fencingToken()).isGreaterThan(holder.fencingToken());
		next.release();
	}

	/** The same for a writer that waits behind a reader (a one-shot data watch). */
	@Test
	void shouldLookAgainWhenTheDataWatchOfAWaitingRoundIsRemoved() throws Exception {
		String path = "watch/removed-reader";
		CuratorFramework observer = this.clients.newClient();
		LockHandle reader = new SharedLockByCurator(this.clients.newClient(), ROOT).acquire(path, LockMode.READ);
		CuratorFramework client = this.clients.newClient();
		SharedLockByCurator writers = new SharedLockByCurator(client, ROOT);
		Future<LockHandle> waiting = this.clients.background(() -> writers.acquire(path, LockMode.WRITE));
		awaitQueued(observer, path, 2);
		await().atMost(AWAIT).until(() -> serverLockWatches(server).size() == 1);

		removeAllWatches(client, path, reader.nodePath());
		await().atMost(AWAIT).until(() -> serverLockWatches(server).size() == 1);
		reader.release();

		LockHandle writer = waiting.get(AWAIT.toSeconds(), TimeUnit.SECONDS);
		assertThat(writer.isHeld()).isTrue();
		writer.release();
	}

	/**
	 * A waiter gives up while its server is down, longer than Curator's retries last but within its
	 * session. Its watch must not come back with the connection: before the fix the handle kept the
	 * persistent watcher (the removal needs the server) and set it again on reconnecting, on a node
	 * deleted meanwhile, for the rest of the session.
	 */
	@Test
	void shouldLeaveNoWatchWhenAWaiterGivesUpWhileTheServerIsAway() throws Exception {
		try (TestingServer own = ZkTestSupport.startServer(); ZkTestSupport.Clients ownClients = new ZkTestSupport.Clients(own)) {
			String path = "watch/outage";
			CuratorFramework observer = ownClients.newClient();
			LockHandle holder = new ExclusiveLockByCurator(ownClients.newClient(), ROOT).acquire(path,
					LockMode.EXCLUSIVE);
			CuratorFramework client = ownClients.newClient((builder) -> builder.sessionTimeoutMs(60_000)
				.connectionTimeoutMs(1_000)
				.retryPolicy(new RetryNTimes(1, 100)));
			ExclusiveLockByCurator waiter = new ExclusiveLockByCurator(client, ROOT);
			Future<Optional<LockHandle>> waiting = ownClients
				.background(() -> waiter.tryAcquire(path, LockMode.EXCLUSIVE, Duration.ofSeconds(3)));
			awaitQueued(observer, path, 2);
			await().atMost(AWAIT).until(() -> serverLockWatches(own).size() == 1);

			own.stop();
			assertThat(waiting.get(AWAIT.toSeconds(), TimeUnit.SECONDS)).as("gave up while the server was away")
				.isEmpty();
			// Curator's one retry of the removal runs out while the server stays away
			await().during(Duration.ofSeconds(2)).atMost(AWAIT).until(() -> true);
			own.restart();
			await().atMost(AWAIT).until(() -> client.getZookeeperClient().isConnected());
			awaitQueued(observer, path, 1);
			holder.release();
			awaitQueued(observer, path, 0);

			assertThat(serverLockWatches(own)).as("watches the server keeps on lock nodes").isEmpty();
			assertThat(clientWatches(client)).as("watchers the waiter's handle keeps on lock nodes").isEmpty();
		}
	}

	/**
	 * A round watches its blocker a second time: the read behind its first watch is lost with the
	 * connection, so it lists again and finds the same blocker. It takes off its first watch and
	 * sets another; the removal's {@code PersistentWatchRemoved} event is its own, and must not
	 * count out the new watch. A listing after that event is held back until the blocker is
	 * released: before the fix the round took the event for another waiter's removal, counted its
	 * new watch out and listed again; that listing found the lock free, and the watch stayed on the
	 * server and in the handle for the rest of the session, set again at every reconnect.
	 */
	@Test
	void shouldLeaveNoWatchWhenARoundWatchesTheSameBlockerAgain() throws Exception {
		String path = "watch/same-blocker-again";
		CuratorFramework observer = this.clients.newClient();
		LockHandle holder = new ExclusiveLockByCurator(this.clients.newClient(), ROOT).acquire(path,
				LockMode.EXCLUSIVE);
		RecordingZooKeeper.Record record = new RecordingZooKeeper.Record("/" + NAMESPACE + basePath(path));
		record.loseReads.set(1);
		record.holdListingsAfterWatches = 2;
		CuratorFramework client = this.clients.newClient(NAMESPACE, RecordingZooKeeper.factory(record));
		ExclusiveLockByCurator waiter = new ExclusiveLockByCurator(client, ROOT);
		try {
			Future<LockHandle> waiting = this.clients.background(() -> waiter.acquire(path, LockMode.EXCLUSIVE));
			awaitQueued(observer, path, 2);
			// the second watch's read answered: its events, and the removal's before them, were delivered
			await().atMost(AWAIT).until(() -> record.count("send watch") == 2 && record.count("reply read") == 2);
			holder.release();
			record.listingGate.countDown();

			LockHandle next = waiting.get(AWAIT.toSeconds(), TimeUnit.SECONDS);
			assertThat(next.fencingToken()).isGreaterThan(holder.fencingToken());
			next.release();
			awaitQueued(observer, path, 0);
			await("no watch left on lock nodes").atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
				assertThat(serverLockWatches(server)).as("watches the server keeps on lock nodes (calls: %s)",
						record.events).isEmpty();
				assertThat(clientWatches(client)).as("watchers the waiter's handle keeps on lock nodes (calls: %s)",
						record.events).isEmpty();
			});
		}
		finally {
			record.listingGate.countDown();
		}
	}

	/**
	 * A writer behind a reader: its data watch on the reader's node is lost with the connection
	 * (the request never reached the server, the handle registered no watcher), so it lists again
	 * and finds the same reader. It must set the watch again, not take the lost one for a live one:
	 * else the reader's release never wakes it.
	 */
	@Test
	void shouldWakeAWriterWhoseDataWatchWasLostWithTheConnection() throws Exception {
		String path = "watch/data-watch-lost";
		CuratorFramework observer = this.clients.newClient();
		LockHandle reader = new SharedLockByCurator(this.clients.newClient(), ROOT).acquire(path, LockMode.READ);
		RecordingZooKeeper.Record record = new RecordingZooKeeper.Record("/" + NAMESPACE + basePath(path));
		record.loseDataWatches.set(1);
		CuratorFramework client = this.clients.newClient(NAMESPACE, RecordingZooKeeper.factory(record));
		SharedLockByCurator writers = new SharedLockByCurator(client, ROOT);
		Future<LockHandle> waiting = this.clients.background(() -> writers.acquire(path, LockMode.WRITE));
		awaitQueued(observer, path, 2);
		// the round listed again after the lost watch, and looked at the reader once more
		await().atMost(AWAIT).until(() -> {
			// a snapshot: a view of the live list fails when the engine records an event meanwhile
			List<String> events = List.copyOf(record.events);
			return Collections.frequency(events, "reply list") == 2 && events
				.subList(events.lastIndexOf("reply list"), events.size())
				.stream()
				.anyMatch((event) -> event.equals("send watch") || event.equals("send read"));
		});
		reader.release();

		LockHandle writer = waiting.get(AWAIT.toSeconds(), TimeUnit.SECONDS);
		assertThat(writer.isHeld()).isTrue();
		writer.release();
		await().atMost(AWAIT).until(() -> serverLockWatches(server).isEmpty() && clientWatches(client).isEmpty());
	}

	private static void removeAllWatches(CuratorFramework client, String lockPath, String nodePath) throws Exception {
		ZooKeeper zooKeeper = client.getZookeeperClient().getZooKeeper();
		String full = "/" + NAMESPACE + nodePath;
		assertThat(full).startsWith("/" + NAMESPACE + basePath(lockPath) + "/");
		zooKeeper.removeAllWatches(full, Watcher.WatcherType.Any, false);
	}

	/** The paths under the lock root the handle has watchers on, of any kind. */
	private static List<String> clientWatches(CuratorFramework client) throws Exception {
		return ZooKeeperWatches.of(client.getZookeeperClient().getZooKeeper())
			.stream()
			.filter((watched) -> watched.startsWith("/" + NAMESPACE + ROOT + "/"))
			.toList();
	}

}
