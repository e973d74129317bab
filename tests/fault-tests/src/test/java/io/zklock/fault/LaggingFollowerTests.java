package io.zklock.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.zklock.fault.ensemble.Ensemble;
import io.zklock.fault.ensemble.EnsembleProbe;
import io.zklock.fault.ensemble.LaggableEnsemble;
import io.zklock.fault.net.ClientRoute;
import io.zklock.fault.net.LaggingLink;
import io.zklock.fixtures.FourLetterWords;
import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.ReleaseResult;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A liveness defect (a waiter stuck behind a lost create reply) on a real three-member ensemble with a really lagging follower: the
 * lock node's create is applied by the leader and the other follower; its reply is lost with the
 * connection ({@link ClientRoute}); the client reconnects to a follower whose link to the leader
 * keeps the leader's proposals and commits back ({@link LaggingLink}), so that follower has not
 * applied the create and takes the client's session (the client never saw the create's zxid).
 * Curator's protected-mode search lists the lock path there, misses the node and creates a second
 * one with the same protected id. The link is released as soon as the leader has both nodes.
 * Curator's {@link InterProcessMutex} runs the same scenario first, as the contrast (CURATOR-498
 * is its mirror case: a node of an older session found by that search).
 */
@Timeout(180)
class LaggingFollowerTests {

	private static final Logger REPORT = LoggerFactory.getLogger("io.zklock.fault.report");

	private static final Duration WAIT = Duration.ofSeconds(5);

	private static LaggableEnsemble lagging;

	private static Ensemble ensemble;

	private final List<AutoCloseable> resources = new CopyOnWriteArrayList<>();

	@BeforeAll
	static void startEnsemble() throws Exception {
		lagging = new LaggableEnsemble(3);
		ensemble = lagging.ensemble();
	}

	@AfterAll
	static void stopEnsemble() {
		lagging.close();
	}

	@AfterEach
	void closeResources() throws Exception {
		for (AutoCloseable resource : this.resources) {
			resource.close();
		}
	}

	@Test
	void shouldTakeAFreeLockAtOnceWhereCuratorsMutexWaitsBehindItsOwnSecondNode() throws Exception {
		// Curator's mutex: its own second node blocks it, and everyone, until its session ends
		ExecutorService curatorThread = Executors.newSingleThreadExecutor();
		this.resources.add(curatorThread::shutdownNow);
		Scenario curator = duplicateCreate("curator-jobs", (client) -> {
			InterProcessMutex mutex = new InterProcessMutex(client, "/locks/curator-jobs");
			return () -> curatorThread.submit(() -> {
				boolean acquired = mutex.acquire(WAIT.toMillis(), TimeUnit.MILLISECONDS);
				if (acquired) {
					mutex.release();
				}
				return acquired;
			}).get();
		});
		CuratorFramework rivalClient = client(ensemble.connectString());
		boolean rivalBlocked = !new InterProcessMutex(rivalClient, "/locks/curator-jobs").acquire(1, TimeUnit.SECONDS);
		// the rival's own node goes with its give-up, a delete the observer's member may apply a little later
		await().atMost(Duration.ofSeconds(10))
			.until(() -> children(curator.observer(), "/locks/curator-jobs").size() <= 1);
		List<String> leftBehind = children(curator.observer(), "/locks/curator-jobs");
		REPORT.info("[lagging-follower] Curator InterProcessMutex.acquire({} s) on a free lock: {} after {} ms; "
				+ "second node formed: {}; left behind: {}; another session's acquire(1 s) blocked: {}", WAIT.toSeconds(),
				curator.result(), curator.millis(), curator.duplicated(), leftBehind, rivalBlocked);
		assertThat(curator.duplicated()).as("the lagging follower made Curator create a second node").isTrue();
		assertThat(curator.result()).as("Curator's mutex waits behind its own first node").isEqualTo(false);
		assertThat(leftBehind).as("and leaves it behind, blocking the lock path").hasSize(1);
		assertThat(rivalBlocked).isTrue();
		curator.client().close();
		await().atMost(Duration.ofSeconds(30)).until(() -> children(curator.observer(), "/locks/curator-jobs").isEmpty());

		// zklock: a node with the attempt's own protected id never blocks it and is not left behind
		Scenario zklock = duplicateCreate("zklock-jobs", (client) -> {
			ExclusiveLockByCurator locks = new ExclusiveLockByCurator(client, "/locks");
			return () -> locks.tryAcquire("zklock-jobs", LockMode.EXCLUSIVE, WAIT);
		});
		Optional<?> granted = (Optional<?>) zklock.result();
		REPORT.info("[lagging-follower] zklock tryAcquire({} s) on a free lock: {} after {} ms; second node formed: {}",
				WAIT.toSeconds(), granted.isPresent() ? "granted" : "timed out", zklock.millis(), zklock.duplicated());
		assertThat(zklock.duplicated()).as("the lagging follower made Curator create a second node").isTrue();
		assertThat(granted).as("a free lock, behind nothing but our own node").isPresent();
		LockHandle held = (LockHandle) granted.get();
		await().atMost(Duration.ofSeconds(20)).until(() -> children(zklock.observer(), "/locks/zklock-jobs").size() == 1);
		ExclusiveLockByCurator rival = new ExclusiveLockByCurator(rivalClient, "/locks");
		assertThat(rival.tryAcquire("zklock-jobs", LockMode.EXCLUSIVE, Duration.ZERO)).as("still exclusive").isEmpty();
		assertThat(held.release()).isEqualTo(ReleaseResult.RELEASED);
		rival.tryAcquire("zklock-jobs", LockMode.EXCLUSIVE, Duration.ofSeconds(5)).orElseThrow().release();
		assertThat(children(zklock.observer(), "/locks/zklock-jobs")).isEmpty();
	}

	/**
	 * One acquire whose create duplicates: the client reaches one follower through a route, the
	 * other follower lags, and the create's reply is lost so that the client moves to the lagging one.
	 * @param acquireFor the acquire to run, given the client (which it has used once to warm up)
	 */
	private Scenario duplicateCreate(String lockPath, Function<CuratorFramework, Callable<Object>> acquireFor)
			throws Exception {
		int leader = EnsembleProbe.awaitLeader(ensemble);
		List<Integer> followers = new ArrayList<>(List.of(0, 1, 2));
		followers.remove(Integer.valueOf(leader));
		int laggingMember = followers.get(0);
		int current = followers.get(1);
		String lockPathNode = "/locks/" + lockPath;
		CuratorFramework observer = client("127.0.0.1:" + ensemble.clientPorts().get(leader));
		// a child that is no lock node keeps the lock path (a container) while the lock is free
		observer.create().creatingParentsIfNeeded().forPath(lockPathNode + "/keep");
		ClientRoute route = new ClientRoute(ensemble.clientPorts().get(current));
		this.resources.add(route);
		CuratorFramework client = client(route.connectString());
		Callable<Object> acquire = acquireFor.apply(client);
		warmUp(acquire);
		awaitCaughtUp(laggingMember, leader);

		LaggingLink link = lagging.link(laggingMember, leader);
		assertThat(link.isConnected()).as("member %d follows the leader through its link", laggingMember + 1).isTrue();
		link.hold();
		boolean duplicated = false;
		long start;
		Future<Object> outcome;
		try {
			route.loseNextReply(ensemble.clientPorts().get(laggingMember));
			start = System.nanoTime();
			ExecutorService caller = Executors.newSingleThreadExecutor();
			this.resources.add(caller::shutdownNow);
			outcome = caller.submit(acquire);
			duplicated = await().atMost(Duration.ofSeconds(20))
				.pollInterval(Duration.ofMillis(10))
				.until(() -> sameProtectedId(children(observer, lockPathNode)) || outcome.isDone(), (done) -> done)
				&& sameProtectedId(children(observer, lockPathNode));
		}
		finally {
			link.release();
		}
		Object result = outcome.get(60, TimeUnit.SECONDS);
		long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
		return new Scenario(client, observer, result, millis, duplicated);
	}

	/** The warm-up acquire: the client's first requests (the namespace) are behind it. */
	private static void warmUp(Callable<Object> acquire) throws Exception {
		Object result = acquire.call();
		if (result instanceof Optional<?> handle) {
			((LockHandle) handle.orElseThrow()).release();
		}
		else {
			assertThat(result).as("warm-up").isEqualTo(true);
		}
	}

	/** Waits until {@code member} has applied everything the leader has. */
	private static void awaitCaughtUp(int member, int leader) {
		await().atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> zxid(member).equals(zxid(leader)) && !zxid(member).isEmpty());
	}

	private static String zxid(int member) {
		return FourLetterWords.send(ensemble.clientPorts().get(member), "srvr")
			.flatMap((answer) -> answer.lines().filter((line) -> line.startsWith("Zxid: ")).findFirst())
			.orElse("");
	}

	/** Whether two lock nodes carry the same protected id ({@code _c_<uuid>-}, 40 characters). */
	private static boolean sameProtectedId(List<String> children) {
		Map<String, Long> byId = children.stream()
			.filter((name) -> name.startsWith("_c_") && name.length() > 40)
			.collect(Collectors.groupingBy((name) -> name.substring(0, 40), Collectors.counting()));
		return byId.values().stream().anyMatch((count) -> count > 1);
	}

	/** The lock nodes (children other than the keeper) of a lock path. */
	private static List<String> children(CuratorFramework observer, String path) {
		try {
			return observer.getChildren().forPath(path).stream().filter((name) -> !name.equals("keep")).toList();
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private CuratorFramework client(String connectString) throws InterruptedException {
		ExecutorService safeService = Executors.newSingleThreadExecutor();
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.namespace("zklock")
			.sessionTimeoutMs(10_000)
			.connectionTimeoutMs(5_000)
			.retryPolicy(new RetryNTimes(10, 100))
			// the route is the client's only address: Curator must not replace it with the members'
			.ensembleTracker(false)
			.runSafeService(safeService)
			.build();
		client.start();
		this.resources.add(0, safeService::shutdownNow);
		this.resources.add(0, client::close);
		if (!client.blockUntilConnected(20, TimeUnit.SECONDS)) {
			throw new IllegalStateException("Could not connect to " + connectString);
		}
		return client;
	}

	/** What one duplicating acquire did. */
	private record Scenario(CuratorFramework client, CuratorFramework observer, Object result, long millis,
			boolean duplicated) {
	}

}
