package io.zklock.lock;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for what {@link LockCoordinator} tells about its locks: events to
 * {@link LockListener}s, {@link LockCoordinator#getHeldLocks()} and
 * {@link LockCoordinator#inspectQueue(String)}.
 */
@Timeout(60)
class LockIntrospectionTests {

	private TestingServer server;

	private CuratorFramework client;

	private LockCoordinator coordinator;

	private final List<LockEvent> events = new CopyOnWriteArrayList<>();

	@BeforeEach
	void start() throws Exception {
		this.server = new TestingServer(true);
		this.client = CuratorFrameworkFactory.builder()
			.connectString(this.server.getConnectString())
			.namespace("zklock")
			.retryPolicy(new RetryOneTime(100))
			.build();
		this.client.start();
		this.client.blockUntilConnected();
		this.coordinator = new LockCoordinator(this.client, "/locks", "instance-a".getBytes(StandardCharsets.UTF_8));
		this.coordinator.addListener(this.events::add);
	}

	@AfterEach
	void stop() throws Exception {
		this.client.close();
		this.server.close();
	}

	@Test
	void shouldReportAcquiredTimedOutAndReleasedWithLockName() throws Exception {
		LockHandle held = this.coordinator.tryAcquire("orders/42", LockMode.EXCLUSIVE, Duration.ZERO).orElseThrow();
		assertThat(held.lockName()).isEqualTo("orders");
		LockHandle reentrant = this.coordinator.tryAcquire("orders/42", LockMode.EXCLUSIVE, Duration.ZERO)
			.orElseThrow();
		boolean gotIt = CompletableFuture
			.supplyAsync(() -> this.coordinator.tryAcquire("orders/42", LockMode.EXCLUSIVE, Duration.ofMillis(50),
					"order-lock")
				.isPresent())
			.get(10, TimeUnit.SECONDS);
		assertThat(gotIt).isFalse();
		assertThat(reentrant.release()).isEqualTo(ReleaseResult.STILL_HELD);
		assertThat(held.release()).isEqualTo(ReleaseResult.RELEASED);

		assertThat(this.events).extracting(LockEvent::type)
			.containsExactly(LockEvent.Type.ACQUIRING, LockEvent.Type.ACQUIRED, LockEvent.Type.ACQUIRING,
					LockEvent.Type.TIMED_OUT, LockEvent.Type.RELEASED);
		assertThat(this.events.get(1).lockName()).isEqualTo("orders");
		assertThat(this.events.get(1).fencingToken()).isEqualTo(held.fencingToken());
		assertThat(this.events.get(3).lockName()).isEqualTo("order-lock");
		assertThat(this.events.get(3).duration()).isGreaterThanOrEqualTo(Duration.ofMillis(50));
		assertThat(this.events.get(4).releaseResult()).isEqualTo(ReleaseResult.RELEASED);
		assertThat(this.events.get(4).lockPath()).isEqualTo("orders/42");
	}

	@Test
	void shouldListHeldLocksAndTheQueueInZooKeeperOrder() throws Exception {
		LockHandle writer = this.coordinator.tryAcquire("reports", LockMode.WRITE, Duration.ZERO).orElseThrow();
		CompletableFuture<LockHandle> reader = CompletableFuture
			.supplyAsync(() -> this.coordinator.tryAcquire("reports", LockMode.READ, Duration.ofSeconds(20))
				.orElseThrow());
		await().atMost(Duration.ofSeconds(10)).until(() -> this.coordinator.inspectQueue("reports").size() == 2);

		List<HeldLock> held = this.coordinator.getHeldLocks();
		assertThat(held).singleElement().satisfies((lock) -> {
			assertThat(lock.lockPath()).isEqualTo("reports");
			assertThat(lock.mode()).isEqualTo(LockMode.WRITE);
			assertThat(lock.fencingToken()).isEqualTo(writer.fencingToken());
			assertThat(lock.holderThread()).isEqualTo(Thread.currentThread().getName());
			assertThat(lock.holdCount()).isOne();
		});
		List<QueuedNode> queue = this.coordinator.inspectQueue("reports");
		assertThat(queue).extracting(QueuedNode::mode).containsExactly(LockMode.WRITE, LockMode.READ);
		assertThat(queue).extracting(QueuedNode::holder).containsExactly(true, false);
		assertThat(queue).extracting(QueuedNode::data).containsOnly("instance-a");
		assertThat(queue.get(0).fencingToken()).isEqualTo(writer.fencingToken());
		assertThat(queue.get(0).sessionId()).isEqualTo(this.client.getZookeeperClient().getZooKeeper().getSessionId());

		writer.release();
		LockHandle read = reader.get(10, TimeUnit.SECONDS);
		assertThat(this.coordinator.inspectQueue("reports")).singleElement()
			.satisfies((node) -> assertThat(node.holder()).isTrue());
		read.release();
		assertThat(this.coordinator.inspectQueue("reports")).isEmpty();
		assertThat(this.coordinator.inspectQueue("never/used")).isEmpty();
		assertThat(this.coordinator.getHeldLocks()).isEmpty();
	}

}
