package io.zklock.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.zklock.fault.ensemble.EnsembleProbe;
import io.zklock.fault.ensemble.InProcessEnsemble;
import io.zklock.fault.harness.FaultLab;
import io.zklock.fault.harness.InJvmClients;
import io.zklock.fixtures.FourLetterWords;
import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Hygiene, on a three-member ensemble: a waiter that gives up during an outage
 * longer than Curator's retry budget, but within its session, leaves no watch behind. The
 * waiter's client talks to one follower only; the holder's to the other two. The follower
 * crashes while the waiter watches the holder's node; the waiter's wait runs out during the
 * outage, the holder releases (its node is deleted), and the follower comes back
 * {@value #OUTAGE_AFTER_GIVE_UP_SECONDS} s after the give-up, when Curator's retries of any
 * request of the give-up (about {@value #RETRIES} + 1 connection timeouts of 1 s) have run out, and
 * long before the session ({@value #SESSION_SECONDS} s) ends. Once the waiter's client has its
 * session back, no member may list a watch on the deleted node ({@code wchc}), and the client's
 * ZooKeeper handle may keep no watcher on it: a watcher left in the handle is set again on the
 * server at each connection, for the rest of the session.
 *
 * <p>
 * On main before the fix it failed every run: the give-up's removal of the persistent watch went
 * through Curator's background retries, which gave up while the member was down; the handle kept
 * the watcher and set the watch again on reconnecting (the member listed it and the handle kept
 * it), while the engine counted nothing watched.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class GiveUpDuringOutageTests {

	/** Figures and outcomes for the reader of the run (logger io.zklock.fault.report, INFO). */
	private static final Logger REPORT = LoggerFactory.getLogger("io.zklock.fault.report");

	private static final int SESSION_SECONDS = 40;

	private static final int RETRIES = 3;

	private static final long OUTAGE_AFTER_GIVE_UP_SECONDS = 10;

	private InProcessEnsemble ensemble;

	private final InJvmClients clients = new InJvmClients();

	private final ExecutorService waiterThread = Executors.newSingleThreadExecutor();

	@BeforeEach
	void start() throws Exception {
		this.ensemble = new InProcessEnsemble(3);
	}

	@AfterEach
	void stop() {
		this.waiterThread.shutdownNow();
		this.clients.close();
		this.ensemble.close();
	}

	@Test
	void shouldLeaveNoWatchOnTheDeletedBlockerWhenTheWaiterGaveUpDuringAnOutage() throws Exception {
		String lockPath = "outage/give-up";
		int leader = EnsembleProbe.awaitLeader(this.ensemble);
		int member = (leader + 1) % 3;
		int other = (leader + 2) % 3;
		CuratorFramework holderClient = this.clients.start(
				"127.0.0.1:" + port(leader) + ",127.0.0.1:" + port(other), Duration.ofSeconds(SESSION_SECONDS),
				Duration.ofSeconds(5), RETRIES, null);
		LockHandle holder = new ExclusiveLockByCurator(holderClient, "/locks")
			.tryAcquire(lockPath, LockMode.EXCLUSIVE, Duration.ofSeconds(30))
			.orElseThrow();
		WatchRecorder watches = new WatchRecorder();
		CuratorFramework waiterClient = this.clients.start("127.0.0.1:" + port(member),
				Duration.ofSeconds(SESSION_SECONDS), Duration.ofSeconds(1), RETRIES, watches.factory());
		ExclusiveLockByCurator waiter = new ExclusiveLockByCurator(waiterClient, "/locks");
		long session = waiterClient.getZookeeperClient().getZooKeeper().getSessionId();

		CompletableFuture<Optional<LockHandle>> waiting = CompletableFuture
			.supplyAsync(() -> waiter.tryAcquire(lockPath, LockMode.EXCLUSIVE, Duration.ofSeconds(4)), this.waiterThread);
		String blocker = watches.awaitWatches(1, Duration.ofSeconds(30));
		assertThat(blocker).as("the waiter watches the holder's node").endsWith(holder.nodePath());
		await("the waiter's member to list its watch on the holder's node").atMost(Duration.ofSeconds(30))
			.until(() -> FourLetterWords.watchedPaths(port(member)).contains(blocker));

		this.ensemble.kill(member);
		// the waiter gives up while its member is down (its wait runs out, or the acquire fails)
		await("the waiter to give up").atMost(Duration.ofSeconds(30)).until(waiting::isDone);
		REPORT.info("[outage] the waiter gave up: "
				+ (waiting.isCompletedExceptionally() ? "failed" : waiting.join().map(Object::toString).orElse("timed out")));
		assertThat(waiting.isCompletedExceptionally() || waiting.join().isEmpty()).as("the waiter holds nothing")
			.isTrue();
		holder.release();
		// longer than Curator's retries of the give-up's requests, well within the session
		Duration outage = Duration.ofSeconds(OUTAGE_AFTER_GIVE_UP_SECONDS);
		await().pollDelay(outage).atMost(outage.plusSeconds(5)).until(() -> true);
		this.ensemble.restart(member);
		EnsembleProbe.awaitLeader(this.ensemble);

		await("the waiter's client connected again, same session").atMost(Duration.ofSeconds(SESSION_SECONDS / 2))
			.until(() -> waiterClient.getZookeeperClient().isConnected()
					&& waiterClient.getZookeeperClient().getZooKeeper().getSessionId() == session);
		// a request after the reconnection: the watches the handle set again on connecting are on the server
		waiterClient.checkExists().forPath("/locks");
		assertThat(holderClient.checkExists().forPath(holder.nodePath())).as("the holder's node, released").isNull();
		ZooKeeper handle = waiterClient.getZookeeperClient().getZooKeeper();
		List<String> left = FaultLab.awaitEmpty(() -> watchesOn(blocker, handle), Duration.ofSeconds(10));
		REPORT.info("[outage] after the reconnection: member watches " + EnsembleProbe.lockWatches(this.ensemble)
				+ ", handle watches " + ZooKeeperHandleWatches.of(handle));
		assertThat(left).as("watches on the deleted blocker after the connection came back").isEmpty();
	}

	/**
	 * The watches on {@code path}: each member's ({@code wchc}) as {@code member <n>:<path>}, and the
	 * handle's (which it sets again at each connection) as {@code handle:<path>}.
	 */
	private List<String> watchesOn(String path, ZooKeeper handle) throws ReflectiveOperationException {
		List<String> watches = new ArrayList<>();
		EnsembleProbe.lockWatches(this.ensemble)
			.stream()
			.filter((watch) -> watch.endsWith(":" + path))
			.forEach((watch) -> watches.add("member " + watch));
		ZooKeeperHandleWatches.of(handle)
			.stream()
			.filter(path::equals)
			.forEach((watch) -> watches.add("handle:" + watch));
		return watches;
	}

	private int port(int member) {
		return this.ensemble.clientPorts().get(member);
	}

}
