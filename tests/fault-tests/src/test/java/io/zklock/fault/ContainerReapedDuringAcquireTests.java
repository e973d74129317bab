package io.zklock.fault;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.TestingServer;
import org.apache.curator.utils.ZookeeperFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lock parents are CONTAINER nodes, which the server reaps once their last child is gone. An
 * acquire on a new lock path under an emptied parent races with that reaper. The race is real:
 * the fault suite hit it between two tests on sibling lock paths, with the members reaping
 * containers every 100 ms. Here it is made exact by deleting the empty parent at the client
 * boundary, as the reaper would ({@link ContainerReaperHook}), at each moment of zklock's
 * creation of a new lock path: right before the lock path's own CONTAINER create (pipelined
 * with the lock node's create after the first create got {@code NoNode}), and inside Curator's
 * creation of every missing parent (the second try, when a parent above the lock path was
 * missing too), right after its {@code exists} found the parent. Each time the lock node's
 * create ends with {@code NoNode}; an acquire with time left must create its parents again and
 * succeed, not fail.
 */
@Timeout(60)
class ContainerReapedDuringAcquireTests {

	/** Figures and outcomes for the reader of the run (logger io.zklock.fault.report, INFO). */
	private static final Logger REPORT = LoggerFactory.getLogger("io.zklock.fault.report");

	/** Read by a ZooKeeper server when it starts (its ContainerManager). */
	private static final String CONTAINER_CHECK_INTERVAL = "znode.container.checkIntervalMs";

	private TestingServer server;

	private final List<CuratorFramework> clients = new CopyOnWriteArrayList<>();

	@BeforeEach
	void startServer() throws Exception {
		// only the hook reaps here: the server's own reaper, which InProcessEnsemble sets to 100 ms for
		// the whole JVM, would take the emptied parent between two steps of the test on a loaded machine
		String checkInterval = System.setProperty(CONTAINER_CHECK_INTERVAL, String.valueOf(Duration.ofHours(1).toMillis()));
		try {
			this.server = new TestingServer(true);
		}
		finally {
			if (checkInterval != null) {
				System.setProperty(CONTAINER_CHECK_INTERVAL, checkInterval);
			}
			else {
				System.clearProperty(CONTAINER_CHECK_INTERVAL);
			}
		}
	}

	@AfterEach
	void stop() throws Exception {
		this.clients.forEach(CuratorFramework::close);
		this.server.close();
	}

	@Test
	void shouldAcquireWhenTheParentIsReapedBeforeTheLockPathIsCreated() throws Exception {
		assertAcquiredUnderReapedParent(ContainerReaperHook.Moment.BEFORE_CONTAINER_CREATE_BELOW, "jobs/new");
	}

	@Test
	void shouldAcquireWhenTheParentIsReapedWhileCuratorCreatesTheParents() throws Exception {
		// "jobs/batch" is missing too: the lock path's own create fails, Curator makes the parents
		assertAcquiredUnderReapedParent(ContainerReaperHook.Moment.AFTER_EXISTS, "jobs/batch/new");
	}

	private void assertAcquiredUnderReapedParent(ContainerReaperHook.Moment moment, String lockPath)
			throws Exception {
		ContainerReaperHook hook = new ContainerReaperHook();
		CuratorFramework other = client(null);
		CuratorFramework client = client(hook.factory());
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(client, "/locks");

		// an earlier lock path under "jobs" is used and gone: "jobs" is an empty container
		locks.tryAcquire("jobs/old", LockMode.EXCLUSIVE, Duration.ZERO).orElseThrow().release();
		other.delete().forPath("/locks/jobs/old");
		assertThat(other.getChildren().forPath("/locks/jobs")).isEmpty();

		hook.arm(moment, "/zklock/locks/jobs", other.getZookeeperClient().getZooKeeper());
		Optional<LockHandle> handle = locks.tryAcquire(lockPath, LockMode.EXCLUSIVE, Duration.ofSeconds(10));
		assertThat(hook.hasFired()).as("the parent was reaped during the acquire (%s)", moment).isTrue();
		REPORT.info("[container-reaped] " + moment + ": reaped on thread " + hook.firedOn());
		assertThat(handle).as("the acquire of '%s', with 10 s to wait", lockPath).isPresent();
		handle.get().release();
	}

	private CuratorFramework client(ZookeeperFactory factory) throws InterruptedException {
		CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
			.connectString(this.server.getConnectString())
			.namespace("zklock")
			.sessionTimeoutMs(10_000)
			.connectionTimeoutMs(5_000)
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
