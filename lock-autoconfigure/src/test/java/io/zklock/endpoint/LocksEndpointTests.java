package io.zklock.endpoint;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.internal.LockNodeData;
import io.zklock.internal.LockPaths;
import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.LockEngine;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockRequest;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link LocksEndpoint} against a real ZooKeeper server, with a second client
 * standing for another instance.
 */
@Timeout(60)
@Tag("slow")
class LocksEndpointTests {

	private static final Duration AWAIT = Duration.ofSeconds(20);

	private static TestingServer server;

	private final ExecutorService threads = Executors.newFixedThreadPool(3);

	// Curator 5.9 leaks its own safe-notify thread on close: give the clients this one
	private final ExecutorService safeNotify = Executors.newSingleThreadExecutor();

	private CuratorFramework client;

	private CuratorFramework otherClient;

	private LockEngine engine;

	private LockEngine otherInstance;

	private LocksEndpoint endpoint;

	@BeforeAll
	static void startServer() throws Exception {
		server = new TestingServer(true);
	}

	@AfterAll
	static void stopServer() throws Exception {
		server.close();
	}

	@BeforeEach
	void connect() throws InterruptedException {
		this.client = startClient();
		this.otherClient = startClient();
		this.engine = LockEngine.builder(this.client).rootPath("/locks").holder("orders", "instance-a").build();
		this.otherInstance = LockEngine.builder(this.otherClient).rootPath("/locks").holder("orders", "instance-b").build();
		this.endpoint = new LocksEndpoint(this.engine);
	}

	@AfterEach
	void disconnect() throws InterruptedException {
		this.threads.shutdownNow();
		assertThat(this.threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
		this.engine.close();
		this.otherInstance.close();
		this.client.close();
		this.otherClient.close();
		this.safeNotify.shutdownNow();
	}

	@Test
	void shouldListHeldLocks() throws Exception {
		HeldLocksDescriptor none = this.endpoint.heldLocks();
		assertThat(none.locks()).isEmpty();
		assertThat(none.rootPath()).isEqualTo("/locks");
		assertThat(none.sessionId()).isEqualTo(hexSessionId(this.client));
		try (LockHandle lock = new ExclusiveLockByCurator(this.engine)
			.tryAcquire(LockRequest.of("orders/42", LockMode.WRITE).waitAtMost(AWAIT).named("orders"))
			.orElseThrow()) {
			HeldLocksDescriptor held = this.endpoint.heldLocks();
			assertThat(held.locks()).singleElement().satisfies((descriptor) -> {
				assertThat(descriptor.lockPath()).isEqualTo("orders/42");
				assertThat(descriptor.lockName()).isEqualTo("orders");
				assertThat(descriptor.mode()).isEqualTo(LockMode.WRITE);
				assertThat(descriptor.fencingToken()).isEqualTo(lock.fencingToken());
				assertThat(descriptor.heldSince()).isEqualTo(lock.acquiredAt());
				assertThat(descriptor.heldForMillis()).isNotNegative();
				assertThat(descriptor.holderThread()).isEqualTo(Thread.currentThread().getName());
				assertThat(descriptor.holdCount()).isEqualTo(1);
				assertThat(descriptor.nodePath()).isEqualTo(lock.nodePath());
			});
		}
		assertThat(this.endpoint.heldLocks().locks()).isEmpty();
	}

	@Test
	void shouldShowHolderFirstThenWaitersOfEveryInstance() throws Exception {
		try (LockHandle lock = new ExclusiveLockByCurator(this.engine).tryAcquire("orders/7", LockMode.EXCLUSIVE, AWAIT).orElseThrow()) {
			Future<Optional<LockHandle>> waiter = this.threads
				.submit(() -> new ExclusiveLockByCurator(this.otherInstance).tryAcquire("orders/7", LockMode.EXCLUSIVE, AWAIT));
			await().atMost(AWAIT).until(() -> this.endpoint.lockQueue(new String[] { "orders", "7" }).nodes().size() == 2);
			LockQueueDescriptor queue = this.endpoint.lockQueue(new String[] { "orders", "7" });
			assertThat(queue.lockPath()).isEqualTo("orders/7");
			assertThat(queue.zooKeeperPath()).isEqualTo("/zklock/locks/orders/7");
			assertThat(queue.subPaths()).isEmpty();
			LockNodeDescriptor holder = queue.nodes().get(0);
			assertThat(holder.position()).isZero();
			assertThat(holder.holder()).isTrue();
			assertThat(holder.mode()).isEqualTo(LockMode.EXCLUSIVE);
			assertThat(holder.fencingToken()).isEqualTo(lock.fencingToken());
			assertThat(holder.thisInstance()).isTrue();
			assertThat(holder.instanceId()).isEqualTo("instance-a");
			assertThat(holder.createdBy()).startsWith("host ")
				.endsWith(", process " + ProcessHandle.current().pid() + ", application 'orders', instance 'instance-a'");
			assertThat(holder.holderThread()).isEqualTo(Thread.currentThread().getName());
			assertThat(holder.sessionId()).isEqualTo(hexSessionId(this.client));
			assertThat(holder.ageMillis()).isNotNegative();
			assertThat(lock.nodePath()).endsWith("/" + holder.nodeName());
			LockNodeDescriptor waiting = queue.nodes().get(1);
			assertThat(waiting.position()).isEqualTo(1);
			assertThat(waiting.holder()).isFalse();
			assertThat(waiting.thisInstance()).isFalse();
			assertThat(waiting.instanceId()).isEqualTo("instance-b");
			assertThat(waiting.createdBy()).startsWith("host ").endsWith(", application 'orders', instance 'instance-b'");
			assertThat(waiting.holderThread()).isNull();
			assertThat(waiting.sessionId()).isEqualTo(hexSessionId(this.otherClient));
			assertThat(waiting.fencingToken()).isGreaterThan(holder.fencingToken());
			lock.release();
			waiter.get(20, TimeUnit.SECONDS).orElseThrow().release();
		}
		assertThat(this.endpoint.lockQueue(new String[] { "orders", "7" }).nodes()).isEmpty();
	}

	@Test
	void shouldTakeTheWholeDataOfAnOlderZklockAsTheInstanceId() {
		// an instance of an older zklock, whose lock nodes carried the instance id alone
		byte[] older = "instance-b".getBytes(StandardCharsets.UTF_8);
		assertThat(LocksEndpoint.instanceId(new String(older, StandardCharsets.UTF_8))).isEqualTo("instance-b");
		assertThat(LockNodeData.describe(older)).isEqualTo("node data 'instance-b'");
		assertThat(LocksEndpoint.instanceId("zklock host=web-2 pid=7 app=orders")).isEmpty();
	}

	@Test
	void shouldShowReadHoldersSideBySideBeforeAWaitingWriter() throws Exception {
		CountDownLatch releaseReaders = new CountDownLatch(1);
		CountDownLatch readersHold = new CountDownLatch(2);
		List<Future<?>> readers = List.of(this.threads.submit(() -> read(this.engine, readersHold, releaseReaders)),
				this.threads.submit(() -> read(this.otherInstance, readersHold, releaseReaders)));
		assertThat(readersHold.await(20, TimeUnit.SECONDS)).isTrue();
		Future<Optional<LockHandle>> writer = this.threads
			.submit(() -> new ExclusiveLockByCurator(this.engine).tryAcquire("stock/sku-1", LockMode.WRITE, AWAIT));
		await().atMost(AWAIT)
			.until(() -> this.endpoint.lockQueue(new String[] { "stock", "sku-1" }).nodes().size() == 3);
		assertThat(this.endpoint.lockQueue(new String[] { "stock", "sku-1" }).nodes())
			.extracting(LockNodeDescriptor::mode, LockNodeDescriptor::holder)
			.containsExactly(tuple(LockMode.READ, true),
					tuple(LockMode.READ, true),
					tuple(LockMode.WRITE, false));
		releaseReaders.countDown();
		for (Future<?> reader : readers) {
			reader.get(20, TimeUnit.SECONDS);
		}
		writer.get(20, TimeUnit.SECONDS).orElseThrow().release();
	}

	@Test
	void shouldListSubPathsBelowALockPath() throws Exception {
		try (LockHandle a = new ExclusiveLockByCurator(this.engine).tryAcquire("inventory/sku-2", LockMode.EXCLUSIVE, AWAIT).orElseThrow();
				LockHandle b = new ExclusiveLockByCurator(this.engine).tryAcquire("inventory/sku-1", LockMode.READ, AWAIT).orElseThrow();
				LockHandle parent = new ExclusiveLockByCurator(this.engine).tryAcquire("inventory", LockMode.READ, AWAIT).orElseThrow()) {
			LockQueueDescriptor queue = this.endpoint.lockQueue(new String[] { "inventory" });
			assertThat(queue.subPaths()).containsExactly("inventory/sku-1", "inventory/sku-2");
			assertThat(queue.nodes()).singleElement().extracting(LockNodeDescriptor::mode).isEqualTo(LockMode.READ);
		}
	}

	@Test
	void shouldShowKeySegmentsDecodedAndTakeTheStoredLockPath() throws Exception {
		// what @DistributedLock(path = "orders", key = "#id") locks for the id "a/b"
		String stored = "orders/" + LockPaths.encodeSegment("a/b");
		assertThat(stored).isEqualTo("orders/a%2Fb");
		try (LockHandle lock = new ExclusiveLockByCurator(this.engine)
			.tryAcquire(stored, LockMode.EXCLUSIVE, AWAIT)
			.orElseThrow()) {
			assertThat(this.endpoint.heldLocks().locks()).singleElement().satisfies((held) -> {
				assertThat(held.lockPath()).isEqualTo("orders/a%2Fb");
				assertThat(held.displayPath()).isEqualTo("orders/a/b");
			});
			LockQueueDescriptor queue = this.endpoint.lockQueue(new String[] { "orders", "a%2Fb" });
			assertThat(queue.lockPath()).isEqualTo("orders/a%2Fb");
			assertThat(queue.displayPath()).isEqualTo("orders/a/b");
			assertThat(queue.nodes()).singleElement()
				.extracting(LockNodeDescriptor::fencingToken)
				.isEqualTo(lock.fencingToken());
			assertThat(this.endpoint.lockQueue(new String[] { "orders" }).subPaths()).contains("orders/a%2Fb");
			// the decoded form is another lock path, of three segments, that nobody holds
			assertThat(this.endpoint.lockQueue(new String[] { "orders", "a", "b" }).nodes()).isEmpty();
		}
	}

	@Test
	void shouldAnswerEmptyQueueForUnknownLockPath() {
		LockQueueDescriptor queue = this.endpoint.lockQueue(new String[] { "nobody", "here" });
		assertThat(queue.nodes()).isEmpty();
		assertThat(queue.subPaths()).isEmpty();
	}

	@Test
	void shouldRejectInvalidLockPath() {
		assertThatExceptionOfType(InvalidEndpointRequestException.class)
			.isThrownBy(() -> this.endpoint.lockQueue(new String[] { "orders", ".." }))
			.withMessageContaining("Lock path 'orders/..' is invalid");
	}

	private Void read(LockEngine engine, CountDownLatch holding, CountDownLatch release)
			throws InterruptedException {
		try (LockHandle lock = new ExclusiveLockByCurator(engine).tryAcquire("stock/sku-1", LockMode.READ, AWAIT).orElseThrow()) {
			holding.countDown();
			assertThat(release.await(20, TimeUnit.SECONDS)).isTrue();
		}
		return null;
	}

	private CuratorFramework startClient() throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(server.getConnectString())
			.namespace("zklock")
			.retryPolicy(new RetryOneTime(100))
			.runSafeService(this.safeNotify)
			.build();
		client.start();
		assertThat(client.blockUntilConnected(20, TimeUnit.SECONDS)).isTrue();
		return client;
	}

	private static String hexSessionId(CuratorFramework client) throws Exception {
		return "0x" + Long.toHexString(client.getZookeeperClient().getZooKeeper().getSessionId());
	}

}
