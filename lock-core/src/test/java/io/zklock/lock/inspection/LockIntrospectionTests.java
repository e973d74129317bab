package io.zklock.lock.inspection;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.HoldOwner;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockEngine;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockRequest;
import io.zklock.lock.RecordingListener;
import io.zklock.lock.ReleaseResult;
import io.zklock.lock.ZkServerTest;
import io.zklock.lock.event.HeldLock;
import io.zklock.lock.event.LockListener;
import io.zklock.lock.event.LockTarget;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for what the engine tells about its locks: events to {@link LockListener}s,
 * {@link LockEngine#getHeldLocks()} and {@link LockQueueInspector#inspect(String)}.
 */
@Timeout(60)
class LockIntrospectionTests extends ZkServerTest {

	private CuratorFramework client;

	private LockEngine engine;

	private ILockByCurator locks;

	private LockQueueInspector inspector;

	private final RecordingListener events = new RecordingListener();

	@BeforeEach
	void start() {
		this.client = this.clients.newClient();
		this.engine = LockEngine.builder(this.client).rootPath("/locks").holder("orders", "instance-a").build();
		this.engine.addListener(this.events);
		this.locks = new ExclusiveLockByCurator(this.engine);
		this.inspector = new LockQueueInspector(this.engine);
	}

	@Test
	void shouldReportAcquiredTimedOutAndReleasedWithLockName() throws Exception {
		LockRequest threadOwned = LockRequest.of("orders/42", LockMode.EXCLUSIVE).ownedBy(HoldOwner.THREAD);
		LockHandle held = this.locks.tryAcquire(threadOwned.waitAtMost(Duration.ZERO)).orElseThrow();
		assertThat(held.lockName()).isEqualTo("orders");
		LockHandle reentrant = this.locks.tryAcquire(threadOwned.waitAtMost(Duration.ZERO)).orElseThrow();
		boolean gotIt = CompletableFuture
			.supplyAsync(() -> this.locks
				.tryAcquire(LockRequest.of("orders/42", LockMode.EXCLUSIVE).waitAtMost(Duration.ofMillis(50))
					.named("order-lock"))
				.isPresent())
			.get(10, TimeUnit.SECONDS);
		assertThat(gotIt).isFalse();
		assertThat(reentrant.release()).isEqualTo(ReleaseResult.STILL_HELD);
		assertThat(held.release()).isEqualTo(ReleaseResult.RELEASED);

		assertThat(this.events.types()).containsExactly(RecordingListener.Type.ACQUIRING,
				RecordingListener.Type.ACQUIRED, RecordingListener.Type.ACQUIRING, RecordingListener.Type.TIMEOUT,
				RecordingListener.Type.RELEASING, RecordingListener.Type.RELEASED);
		List<RecordingListener.Event> events = this.events.events();
		assertThat(events.get(1).lock().lockName()).isEqualTo("orders");
		assertThat(events.get(1).fencingToken()).isEqualTo(held.fencingToken());
		assertThat(events.get(3).lock().lockName()).isEqualTo("order-lock");
		assertThat(events.get(3).duration()).isGreaterThanOrEqualTo(Duration.ofMillis(50));
		assertThat(events.get(4).fencingToken()).isEqualTo(held.fencingToken());
		assertThat(events.get(5).result()).isEqualTo(ReleaseResult.RELEASED);
		assertThat(events.get(5).lock().lockPath()).isEqualTo("orders/42");
	}

	@Test
	void shouldReportTheStartOfAReleaseWhileTheLockNodeStillExists() throws Exception {
		List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
		LockHandle held = this.locks.acquire("orders/7", LockMode.EXCLUSIVE);
		this.engine.addListener(new LockListener() {
			@Override
			public void onReleasing(LockTarget lock, long fencingToken) {
				seen.add("releasing " + lock.lockPath() + " " + (fencingToken == held.fencingToken()) + " node "
						+ exists(held.nodePath()));
			}

			@Override
			public void onReleased(LockTarget lock, long fencingToken, Duration heldFor, ReleaseResult result) {
				seen.add("released " + lock.lockPath() + " node " + exists(held.nodePath()));
			}
		});
		assertThat(held.release()).isEqualTo(ReleaseResult.RELEASED);
		assertThat(seen).containsExactly("releasing orders/7 true node true", "released orders/7 node false");
	}

	private boolean exists(String nodePath) {
		try {
			return this.client.checkExists().forPath(nodePath) != null;
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Test
	void shouldListHeldLocksAndTheQueueInZooKeeperOrder() throws Exception {
		LockHandle writer = this.locks.tryAcquire("reports", LockMode.WRITE, Duration.ZERO).orElseThrow();
		CompletableFuture<LockHandle> reader = CompletableFuture
			.supplyAsync(() -> this.locks.tryAcquire("reports", LockMode.READ, Duration.ofSeconds(20))
				.orElseThrow());
		await().atMost(Duration.ofSeconds(10)).until(() -> this.inspector.inspect("reports").size() == 2);

		List<HeldLock> held = this.engine.getHeldLocks();
		assertThat(held).singleElement().satisfies((lock) -> {
			assertThat(lock.lockPath()).isEqualTo("reports");
			assertThat(lock.mode()).isEqualTo(LockMode.WRITE);
			assertThat(lock.fencingToken()).isEqualTo(writer.fencingToken());
			assertThat(lock.holderThread()).isEqualTo(Thread.currentThread().getName());
			assertThat(lock.holdCount()).isOne();
		});
		List<QueuedNode> queue = this.inspector.inspect("reports");
		assertThat(queue).extracting(QueuedNode::mode).containsExactly(LockMode.WRITE, LockMode.READ);
		assertThat(queue).extracting(QueuedNode::holder).containsExactly(true, false);
		assertThat(queue).extracting(QueuedNode::data)
			.allSatisfy((data) -> assertThat(data).startsWith("zklock host=").endsWith(" app=orders instance=instance-a"));
		assertThat(queue.get(0).fencingToken()).isEqualTo(writer.fencingToken());
		assertThat(queue.get(0).sessionId()).isEqualTo(this.client.getZookeeperClient().getZooKeeper().getSessionId());

		writer.release();
		LockHandle read = reader.get(10, TimeUnit.SECONDS);
		assertThat(this.inspector.inspect("reports")).singleElement()
			.satisfies((node) -> assertThat(node.holder()).isTrue());
		read.release();
		assertThat(this.inspector.inspect("reports")).isEmpty();
		assertThat(this.inspector.inspect("never/used")).isEmpty();
		assertThat(this.engine.getHeldLocks()).isEmpty();
	}

}
