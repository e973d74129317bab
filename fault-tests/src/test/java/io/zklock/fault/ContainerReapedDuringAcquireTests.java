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
 * acquire on a new lock path under an emptied parent races with that reaper: Curator's
 * {@code creatingParentContainersIfNeeded} checks the parent exists, the reaper deletes it, and
 * the creation of the lock path's own container fails with {@code NoNode}. The race is real: the
 * fault suite hit it between two tests on sibling lock paths, with the members reaping
 * containers every 100 ms. Here it is made exact by deleting the empty container right after the
 * first existence check of it since the hook was armed, as the reaper would. zklock creates in
 * the background, so that check is Curator's creation of the missing parents (after the lock
 * node's create got {@code NoNode}) on Curator's background thread; the failed parent creation
 * ends the create with {@code NoNode}. An acquire with time left must queue again, which creates
 * its parents again, and succeed, not fail.
 */
@Timeout(60)
class ContainerReapedDuringAcquireTests {

	/** Figures and outcomes for the reader of the run (logger io.zklock.fault.report, INFO). */
	private static final Logger REPORT = LoggerFactory.getLogger("io.zklock.fault.report");

	private TestingServer server;

	private final List<CuratorFramework> clients = new CopyOnWriteArrayList<>();

	@BeforeEach
	void startServer() throws Exception {
		this.server = new TestingServer(true);
	}

	@AfterEach
	void stop() throws Exception {
		this.clients.forEach(CuratorFramework::close);
		this.server.close();
	}

	@Test
	void shouldAcquireUnderAContainerReapedMidway() throws Exception {
		ContainerReaperHook hook = new ContainerReaperHook();
		CuratorFramework other = client(null);
		CuratorFramework client = client(hook.factory());
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(client, "/locks");

		// an earlier lock path under "jobs" is used and gone: "jobs" is an empty container
		locks.tryAcquire("jobs/old", LockMode.EXCLUSIVE, Duration.ZERO).orElseThrow().release();
		other.delete().forPath("/locks/jobs/old");
		assertThat(other.getChildren().forPath("/locks/jobs")).isEmpty();

		hook.arm("/zklock/locks/jobs", other.getZookeeperClient().getZooKeeper());
		Optional<LockHandle> handle = locks.tryAcquire("jobs/new", LockMode.EXCLUSIVE, Duration.ofSeconds(10));
		assertThat(hook.hasFired()).as("the container was reaped during the acquire").isTrue();
		REPORT.info("[container-reaped] reaped after the existence check on thread " + hook.firedOn());
		assertThat(handle).as("the acquire of 'jobs/new', with 10 s to wait").isPresent();
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
