package io.zklock.lock;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.zklock.lock.ZkTestSupport.AWAIT;
import static io.zklock.lock.ZkTestSupport.NAMESPACE;
import static io.zklock.lock.ZkTestSupport.ROOT;
import static io.zklock.lock.ZkTestSupport.awaitQueued;
import static io.zklock.lock.ZkTestSupport.basePath;
import static io.zklock.lock.ZkTestSupport.lockNodes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The two fast paths of the protocol and every branch that falls back from them: the listing
 * pipelined behind the create is used only when it contains our node and both calls went out
 * on a connected client; a waiter holds the lock without listing again only when the deleted
 * node was the only one blocking it in a listing taken after its create, under the same
 * session.
 */
@Timeout(60)
@Tag("slow")
class FastPathTests extends ZkServerTest {

	@Test
	void shouldSendTheListingBeforeTheCreateReplyOnAConnectedClient() {
		String path = "fast/pipelined";
		ExclusiveLockByCurator warm = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		warm.acquire(path, LockMode.EXCLUSIVE).release();
		RecordingZooKeeper.Record record = new RecordingZooKeeper.Record(zkPath(path));
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(recordedClient(record), ROOT);

		LockHandle lock = locks.acquire(path, LockMode.EXCLUSIVE);
		assertThat(record.pipelined()).as("listing sent before the create's reply: one round trip").isTrue();
		assertThat(record.count("send create")).isOne();
		assertThat(record.count("send list")).as("the pipelined listing was used").isOne();
		assertThat(lock.release()).isEqualTo(ReleaseResult.RELEASED);
	}

	@Test
	void shouldHaveThePlatformCallerReadItsListingAndReleaseReplies() {
		String path = "fast/caller-reads";
		RecordingZooKeeper.Record record = new RecordingZooKeeper.Record(zkPath(path));
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(recordedClient(record), ROOT);
		// the first acquire waits for the client's namespace, made on the engine's own thread
		locks.acquire(path, LockMode.EXCLUSIVE).release();
		record.events.clear();
		record.listingsOnCaller.set(0);
		record.releasesOnCaller.set(0);
		record.releasesInBackground.set(0);

		LockHandle lock = locks.acquire(path, LockMode.EXCLUSIVE);
		assertThat(record.pipelined()).as("the caller's listing went out before the create's reply").isTrue();
		assertThat(record.count("send list")).isOne();
		assertThat(record.listingsOnCaller).as("a synchronous listing on the calling thread").hasValue(1);
		assertThat(lock.release()).isEqualTo(ReleaseResult.RELEASED);
		assertThat(record.releasesOnCaller).as("the release's multi, synchronous on the releasing thread").hasValue(1);
		assertThat(record.releasesInBackground).hasValue(0);
	}

	@Test
	void shouldKeepTheBackgroundListingForATimedAcquire() {
		String path = "fast/timed";
		RecordingZooKeeper.Record record = new RecordingZooKeeper.Record(zkPath(path));
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(recordedClient(record), ROOT);
		locks.acquire(path, LockMode.EXCLUSIVE).release();
		record.events.clear();
		record.listingsOnCaller.set(0);

		LockHandle lock = locks.tryAcquire(path, LockMode.EXCLUSIVE, Duration.ofSeconds(10)).orElseThrow();
		assertThat(record.pipelined()).isTrue();
		assertThat(record.count("send list")).isOne();
		assertThat(record.listingsOnCaller).as("a synchronous call could not end at the deadline").hasValue(0);
		assertThat(lock.release()).isEqualTo(ReleaseResult.RELEASED);
	}

	@Test
	void shouldReleaseInTheBackgroundAndKeepTheFlagWhenTheThreadIsInterrupted() {
		String path = "fast/interrupted-release";
		RecordingZooKeeper.Record record = new RecordingZooKeeper.Record(zkPath(path));
		CuratorFramework client = recordedClient(record);
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(client, ROOT);
		locks.acquire(path, LockMode.EXCLUSIVE).release();
		record.releasesOnCaller.set(0);
		record.releasesInBackground.set(0);
		LockHandle lock = locks.acquire(path, LockMode.EXCLUSIVE);

		Thread.currentThread().interrupt();
		ReleaseResult result;
		try {
			result = lock.release();
		}
		finally {
			assertThat(Thread.interrupted()).as("the interrupt flag is kept").isTrue();
		}
		assertThat(result).as("an interrupted thread still waits for its release in the background").isEqualTo(ReleaseResult.RELEASED);
		assertThat(record.releasesInBackground).hasValue(1);
		assertThat(record.releasesOnCaller).hasValue(0);
		assertThat(lockNodes(client, path)).isEmpty();
	}

	@Test
	void shouldGiveUpAndDeleteTheNodeWhenInterruptedWhileReadingTheListing() throws Exception {
		String path = "fast/interrupted-listing";
		RecordingZooKeeper.Record record = new RecordingZooKeeper.Record(zkPath(path));
		CuratorFramework client = recordedClient(record);
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(client, ROOT);
		locks.acquire(path, LockMode.EXCLUSIVE).release();
		record.holdListings.set(1);
		Thread[] caller = new Thread[1];
		Future<LockHandle> acquired = this.clients.background(() -> {
			caller[0] = Thread.currentThread();
			return locks.acquire(path, LockMode.EXCLUSIVE);
		});
		await().atMost(AWAIT).until(() -> record.events.contains("hold list"));
		caller[0].interrupt();
		assertThatThrownBy(() -> acquired.get(20, TimeUnit.SECONDS)).hasCauseInstanceOf(LockAcquisitionException.class)
			.cause()
			.hasMessageContaining("Interrupted");
		await().atMost(AWAIT).until(() -> lockNodes(client, path).isEmpty());
		record.listingGate.countDown();
	}

	@Test
	void shouldListAgainWhenTheParentIsMissing() {
		String path = "fast/new-parent";
		RecordingZooKeeper.Record record = new RecordingZooKeeper.Record(zkPath(path));
		CuratorFramework client = recordedClient(record);
		LockHandle lock = new ExclusiveLockByCurator(client, ROOT).acquire(path, LockMode.EXCLUSIVE);
		assertThat(record.count("send list")).as("the pipelined listing failed with NoNode; listed again").isEqualTo(2);
		assertThat(lockNodes(client, path)).singleElement().satisfies((node) -> assertThat(lock.nodePath()).endsWith(node));
		lock.release();
	}

	@Test
	void shouldListAgainWhenThePipelinedListingLacksOurNode() {
		String path = "fast/reordered";
		ExclusiveLockByCurator warm = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		warm.acquire(path, LockMode.EXCLUSIVE).release();
		RecordingZooKeeper.Record record = new RecordingZooKeeper.Record(zkPath(path));
		CuratorFramework client = recordedClient(record);
		record.rewriteNextListing = (children) -> List.of();
		LockHandle lock = new ExclusiveLockByCurator(client, ROOT).acquire(path, LockMode.EXCLUSIVE);
		assertThat(record.count("send list")).as("a listing without our node is never used").isEqualTo(2);
		assertThat(lockNodes(client, path)).hasSize(1);
		lock.release();
	}

	@Test
	void shouldLeaveNoOrphanWhenThePipelinedListingReplyIsLost() {
		String path = "fast/lost-listing";
		ExclusiveLockByCurator warm = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		warm.acquire(path, LockMode.EXCLUSIVE).release();
		RecordingZooKeeper.Record record = new RecordingZooKeeper.Record(zkPath(path));
		CuratorFramework client = recordedClient(record);
		record.loseListings.set(1);
		LockHandle lock = new ExclusiveLockByCurator(client, ROOT).acquire(path, LockMode.EXCLUSIVE);
		assertThat(record.count("send list")).isGreaterThanOrEqualTo(2);
		assertThat(lockNodes(client, path)).hasSize(1);
		assertThat(lock.release()).isEqualTo(ReleaseResult.RELEASED);
		assertThat(lockNodes(client, path)).isEmpty();
	}

	@Test
	void shouldSendNothingWhileDisconnectedAndPipelineOnceReconnected() throws Exception {
		String path = "fast/disconnected";
		ExclusiveLockByCurator warm = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		warm.acquire(path, LockMode.EXCLUSIVE).release();
		RecordingZooKeeper.Record record = new RecordingZooKeeper.Record(zkPath(path));
		CuratorFramework client = recordedClient(record);
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(client, ROOT);
		server.stop();
		await().atMost(AWAIT).until(() -> !client.getZookeeperClient().isConnected());
		Future<LockHandle> acquired = this.clients.background(() -> locks.acquire(path, LockMode.EXCLUSIVE));
		// nothing is sent that Curator could queue (and reorder, or give up on before the wait's end)
		await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() -> record.events.isEmpty());
		server.restart();
		LockHandle lock = acquired.get(30, TimeUnit.SECONDS);
		assertThat(record.pipelined()).as("sent once connected, the listing right behind the create").isTrue();
		lock.release();
	}

	@Test
	void shouldHoldWithoutListingAgainWhenTheOnlyBlockerIsDeleted() throws Exception {
		String path = "fast/handoff";
		LockHandle holder = new ExclusiveLockByCurator(this.clients.newClient(), ROOT).acquire(path, LockMode.EXCLUSIVE);
		RecordingZooKeeper.Record record = new RecordingZooKeeper.Record(zkPath(path));
		CuratorFramework client = recordedClient(record);
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(client, ROOT);
		Future<LockHandle> waiter = this.clients.background(() -> locks.acquire(path, LockMode.EXCLUSIVE));
		awaitQueued(client, path, 2);
		// the waiter watches the holder's node: its read after the watch answered (else a release
		// before the watch is a node gone before it was watched, which rightly costs a listing)
		await().atMost(AWAIT).until(() -> record.events.contains("reply read"));
		holder.release();
		LockHandle lock = waiter.get(20, TimeUnit.SECONDS);
		assertThat(record.count("send list")).as("granted on the holder's deletion, no second listing").isOne();
		assertThat(lock.fencingToken()).isGreaterThan(holder.fencingToken());
		lock.release();
	}

	@Test
	void shouldListAgainWhenADeletedPredecessorWasNotTheOnlyBlocker() throws Exception {
		String path = "fast/not-only-blocker";
		CuratorFramework holderClient = this.clients.newClient();
		LockHandle holder = new ExclusiveLockByCurator(holderClient, ROOT).acquire(path, LockMode.EXCLUSIVE);
		ExclusiveLockByCurator impatient = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		Future<Optional<LockHandle>> gaveUp = this.clients
			.background(() -> impatient.tryAcquire(path, LockMode.EXCLUSIVE, Duration.ofSeconds(2)));
		awaitQueued(holderClient, path, 2);
		RecordingZooKeeper.Record record = new RecordingZooKeeper.Record(zkPath(path));
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(recordedClient(record), ROOT);
		Future<LockHandle> waiter = this.clients.background(() -> locks.acquire(path, LockMode.EXCLUSIVE));
		awaitQueued(holderClient, path, 3);

		// the predecessor gives up while the holder still holds: its deletion is no grant
		assertThat(gaveUp.get(20, TimeUnit.SECONDS)).isEmpty();
		await().atMost(AWAIT).until(() -> record.count("send list") == 2);
		// the waiter watches the holder now: its read behind the watch returned, after the second listing
		await().atMost(AWAIT)
			.until(() -> record.events.lastIndexOf("reply read") > record.events.lastIndexOf("send list"));
		await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() -> !waiter.isDone());
		assertThat(holder.isHeld()).isTrue();

		holder.release();
		LockHandle lock = waiter.get(20, TimeUnit.SECONDS);
		assertThat(record.count("send list")).as("after listing again, the holder was the only blocker").isEqualTo(2);
		lock.release();
	}

	@Test
	void shouldQueueAgainUnderTheNewSessionInsteadOfHandingOffAcrossASessionChange() throws Exception {
		String path = "fast/session-change";
		LockHandle holder = new ExclusiveLockByCurator(this.clients.newClient(), ROOT).acquire(path, LockMode.EXCLUSIVE);
		CuratorFramework client = this.clients.newClient();
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(client, ROOT);
		Future<LockHandle> waiter = this.clients.background(() -> locks.acquire(path, LockMode.EXCLUSIVE));
		awaitQueued(client, path, 2);
		String firstNode = lockNodes(client, path).get(1);
		long firstSession = client.getZookeeperClient().getZooKeeper().getSessionId();

		ZkTestSupport.expireSession(server, client);
		await().atMost(AWAIT).until(() -> client.getZookeeperClient().isConnected()
				&& client.getZookeeperClient().getZooKeeper().getSessionId() != firstSession
				&& lockNodes(client, path).size() == 2 && !lockNodes(client, path).contains(firstNode));
		holder.release();
		LockHandle lock = waiter.get(20, TimeUnit.SECONDS);
		Stat stat = client.checkExists().forPath(lock.nodePath());
		assertThat(stat).isNotNull();
		assertThat(stat.getEphemeralOwner()).isEqualTo(client.getZookeeperClient().getZooKeeper().getSessionId());
		assertThat(lock.nodePath()).doesNotEndWith(firstNode);
		lock.release();
	}

	@Test
	void shouldReportLostAtReleaseWhenAnotherClientDeletedTheNodeOfAWaiterHandedTheLock() throws Exception {
		String path = "fast/deleted-by-another";
		CuratorFramework holderClient = this.clients.newClient();
		LockHandle holder = new ExclusiveLockByCurator(holderClient, ROOT).acquire(path, LockMode.EXCLUSIVE);
		CuratorFramework client = this.clients.newClient();
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(client, ROOT);
		Future<LockHandle> waiter = this.clients.background(() -> locks.acquire(path, LockMode.EXCLUSIVE));
		awaitQueued(client, path, 2);
		// an operator deletes the waiter's lock node, which no protocol may do
		holderClient.delete().forPath(basePath(path) + "/" + lockNodes(client, path).get(1));
		holder.release();
		LockHandle lock = waiter.get(20, TimeUnit.SECONDS);
		assertThat(lock.release()).as("a lock whose node was gone is reported lost").isEqualTo(ReleaseResult.LOST);
	}

	private static String zkPath(String lockPath) {
		return "/" + NAMESPACE + basePath(lockPath);
	}

	private CuratorFramework recordedClient(RecordingZooKeeper.Record record) {
		return this.clients.newClient(NAMESPACE, RecordingZooKeeper.factory(record));
	}

}
