package io.zklock.fault;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.zklock.fixtures.Sessions;
import io.zklock.lock.LockAcquisitionException;
import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockState;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.TestingServer;
import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A session lost in the last moments of an acquire: after the grant was decided (on
 * ZooKeeper's event thread, where the waiter's watch on its predecessor fired), but before the
 * acquiring thread registered its hold with the connection-state listener. The lock node dies
 * with the session and a rival can take the lock, so the handle must not report
 * {@link LockState#HELD} for a node of an expired session (failing or refusing the acquire, or
 * queueing again under the new session, are correct answers).
 *
 * <p>
 * To make the moment exact, the acquiring thread is held in its first call into the ZooKeeper
 * handle after the grant, {@code getSessionId()}, which the registration makes (see
 * {@link GrantWindowHooks}); the session is expired there, and Curator delivers LOST and
 * RECONNECTED before the thread goes on.
 */
@Timeout(120)
class LockLostWhileGrantedTests {

	/** Figures and outcomes for the reader of the run (logger io.zklock.fault.report, INFO). */
	private static final Logger REPORT = LoggerFactory.getLogger("io.zklock.fault.report");

	private static final int SESSION_TIMEOUT_MS = 4000;

	private TestingServer server;

	private final List<CuratorFramework> clients = new CopyOnWriteArrayList<>();

	private final ExecutorService waiterThread = Executors.newSingleThreadExecutor();

	@BeforeEach
	void startServer() throws Exception {
		this.server = new TestingServer(true);
	}

	@AfterEach
	void stop() throws Exception {
		this.waiterThread.shutdownNow();
		this.clients.forEach(CuratorFramework::close);
		this.server.close();
	}

	@Test
	void shouldNotReportHeldALockWhoseSessionIsLostBeforeTheAcquireReturns() throws Exception {
		GrantWindowHooks hooks = new GrantWindowHooks();
		CuratorFramework holderClient = client(null);
		CuratorFramework waiterClient = client(hooks.factory());
		ExclusiveLockByCurator holder = new ExclusiveLockByCurator(holderClient, "/locks");
		ExclusiveLockByCurator waiter = new ExclusiveLockByCurator(waiterClient, "/locks");
		List<ConnectionState> waiterStates = new CopyOnWriteArrayList<>();
		waiterClient.getConnectionStateListenable().addListener((client, state) -> waiterStates.add(state));

		LockHandle held = holder.tryAcquire("jobs", LockMode.EXCLUSIVE, Duration.ZERO).orElseThrow();
		CompletableFuture<Optional<LockHandle>> waiting = CompletableFuture.supplyAsync(() -> {
			hooks.target = Thread.currentThread();
			return waiter.tryAcquire("jobs", LockMode.EXCLUSIVE, Duration.ofSeconds(60));
		}, this.waiterThread);
		await().atMost(Duration.ofSeconds(20)).until(() -> lockNodes(holderClient).size() == 2);
		assertThat(hooks.watchSet.await(30, TimeUnit.SECONDS)).as("waiter watches the holder's node").isTrue();

		// the waiter has queued and parks on its acquire: its next call into the handle comes after the grant
		hooks.holdSessionRead = true;
		held.release();
		assertThat(hooks.sessionReadEntered.await(30, TimeUnit.SECONDS))
			.as("waiter granted, reading its session id to register its hold").isTrue();

		// the session expires after the grant was decided and before the hold is registered
		int seen = waiterStates.size();
		Sessions.expire(waiterClient, this.server.getConnectString());
		await().atMost(Duration.ofSeconds(30))
			.until(() -> statesSince(waiterStates, seen).contains(ConnectionState.RECONNECTED));
		assertThat(statesSince(waiterStates, seen)).contains(ConnectionState.LOST);
		hooks.sessionReadReleased.countDown();

		Optional<LockHandle> granted;
		try {
			granted = waiting.get(30, TimeUnit.SECONDS);
		}
		catch (ExecutionException ex) {
			// failing the acquire is a correct answer too
			REPORT.info("[grant-window] the acquire failed: " + ex.getCause());
			assertThat(ex.getCause()).isInstanceOf(LockAcquisitionException.class);
			return;
		}
		if (granted.isEmpty()) {
			REPORT.info("[grant-window] the acquire refused the grant");
			return; // so is refusing the grant
		}
		LockHandle handle = granted.get();
		REPORT.info("[grant-window] the acquire returned " + handle + " on " + handle.nodePath()
				+ ", a live node of the current session: " + ownsLiveNode(waiterClient, handle));
		if (!ownsLiveNode(waiterClient, handle)) {
			Optional<LockHandle> rival = holder.tryAcquire("jobs", LockMode.EXCLUSIVE, Duration.ofSeconds(10));
			REPORT.info("[grant-window] waiter's handle " + handle + " has no lock node of its session; "
					+ "rival: " + rival.map(Object::toString).orElse("not granted"));
		}
		await("the waiter's handle to stop reporting HELD for a lock node of an expired session")
			.atMost(Duration.ofSeconds(SESSION_TIMEOUT_MS / 1000 * 2))
			.until(() -> handle.state() != LockState.HELD || ownsLiveNode(waiterClient, handle));
	}

	/** Whether the handle's lock node exists and belongs to the client's current session. */
	private static boolean ownsLiveNode(CuratorFramework client, LockHandle handle) throws Exception {
		Stat stat = client.checkExists().forPath(handle.nodePath());
		return stat != null && stat.getEphemeralOwner() == client.getZookeeperClient().getZooKeeper().getSessionId();
	}

	/**
	 * The states recorded from index {@code from} on, copied: a view of the live list throws
	 * {@code ConcurrentModificationException} when the listener records a state meanwhile.
	 */
	private static List<ConnectionState> statesSince(List<ConnectionState> states, int from) {
		List<ConnectionState> snapshot = List.copyOf(states);
		return snapshot.subList(from, snapshot.size());
	}

	private static List<String> lockNodes(CuratorFramework client) throws Exception {
		return (client.checkExists().forPath("/locks/jobs") != null) ? client.getChildren().forPath("/locks/jobs")
				: List.of();
	}

	private CuratorFramework client(ZookeeperFactory factory) throws InterruptedException {
		CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
			.connectString(this.server.getConnectString())
			.namespace("zklock")
			.sessionTimeoutMs(SESSION_TIMEOUT_MS)
			.connectionTimeoutMs(2000)
			.retryPolicy(new RetryNTimes(3, 100));
		if (factory != null) {
			builder.zookeeperFactory(factory);
		}
		CuratorFramework client = builder.build();
		client.start();
		client.blockUntilConnected();
		this.clients.add(client);
		return client;
	}

}
