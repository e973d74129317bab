package io.zklock.lock;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.zklock.lock.ZkTestSupport.ROOT;
import static io.zklock.lock.ZkTestSupport.lockNodes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link LockHandle#detachFromThread()}: a thread-owned hold handed over from its thread to its
 * handle keeps the lock node, but the thread no longer holds it (no reentry, not
 * {@code isHeldByCurrentThread}), and the handle is released later from another thread.
 */
@Timeout(30)
class ThreadDetachTests extends ZkServerTest {

	@Test
	void shouldKeepTheNodeButEndTheThreadsHold() throws Exception {
		String path = "detach/single";
		CuratorFramework client = this.clients.newClient();
		ExclusiveLockByCurator lock = new ExclusiveLockByCurator(client, ROOT);
		LockHandle handle = lock.acquire(threadOwned(path));
		assertThat(lock.isHeldByCurrentThread(path)).isTrue();

		assertThat(handle.detachFromThread()).isSameAs(handle);

		assertThat(handle.owner()).isEqualTo(HoldOwner.CALL);
		assertThat(handle.isHeld()).isTrue();
		assertThat(lockNodes(client, path)).hasSize(1);
		assertThat(lock.isHeldByCurrentThread(path)).isFalse();
		assertThat(lock.heldLocks()).singleElement().satisfies((held) -> {
			assertThat(held.owner()).isEqualTo(HoldOwner.CALL);
			assertThat(held.holdCount()).isEqualTo(1);
		});
		assertThat(lock.tryAcquire(threadOwned(path).waitAtMost(Duration.ZERO)))
			.as("the same thread queues behind the detached node instead of joining it")
			.isEmpty();
		assertThat(lockNodes(client, path)).hasSize(1);
		try (LockHandle other = lock.acquire(threadOwned("detach/other"))) {
			assertThat(lock.isHeldByCurrentThread("detach/other")).isTrue();
		}

		ReleaseResult released = this.clients.background(handle::release).get(10, TimeUnit.SECONDS);
		assertThat(released).isEqualTo(ReleaseResult.RELEASED);
		assertThat(lockNodes(client, path)).isEmpty();
		assertThat(lock.heldLocks()).isEmpty();
	}

	@Test
	void shouldLeaveTheThreadOnlyWhenItsOuterHoldIsReleased() throws Exception {
		String path = "detach/nested";
		CuratorFramework client = this.clients.newClient();
		ExclusiveLockByCurator lock = new ExclusiveLockByCurator(client, ROOT);
		LockHandle outer = lock.acquire(threadOwned(path));
		LockHandle inner = lock.acquire(threadOwned(path));

		inner.detachFromThread();
		assertThat(lock.isHeldByCurrentThread(path)).as("the outer hold is still the thread's").isTrue();
		LockHandle again = lock.tryAcquire(threadOwned(path).waitAtMost(Duration.ZERO)).orElseThrow();
		assertThat(again.fencingToken()).isEqualTo(outer.fencingToken());
		assertThat(again.release()).isEqualTo(ReleaseResult.STILL_HELD);
		assertThat(lock.heldLocks()).singleElement()
			.satisfies((held) -> assertThat(held.owner()).isEqualTo(HoldOwner.THREAD));

		assertThat(outer.release()).isEqualTo(ReleaseResult.STILL_HELD);
		assertThat(lock.isHeldByCurrentThread(path)).isFalse();
		assertThat(lockNodes(client, path)).hasSize(1);
		assertThat(lock.tryAcquire(threadOwned(path).waitAtMost(Duration.ZERO))).isEmpty();

		assertThat(this.clients.background(inner::release).get(10, TimeUnit.SECONDS))
			.isEqualTo(ReleaseResult.RELEASED);
		assertThat(lockNodes(client, path)).isEmpty();
		try (LockHandle next = lock.acquire(threadOwned(path))) {
			assertThat(next.fencingToken()).isGreaterThan(outer.fencingToken());
		}
	}

	@Test
	void shouldDoNothingForCallOwnedOrReleasedHandles() {
		String path = "detach/call";
		CuratorFramework client = this.clients.newClient();
		ExclusiveLockByCurator lock = new ExclusiveLockByCurator(client, ROOT);
		LockHandle call = lock.acquire(path, LockMode.EXCLUSIVE);
		assertThat(call.detachFromThread()).isSameAs(call);
		assertThat(call.owner()).isEqualTo(HoldOwner.CALL);
		assertThat(call.release()).isEqualTo(ReleaseResult.RELEASED);

		LockHandle released = lock.acquire(threadOwned(path));
		assertThat(released.release()).isEqualTo(ReleaseResult.RELEASED);
		released.detachFromThread();
		assertThat(released.release()).isEqualTo(ReleaseResult.ALREADY_RELEASED);
		assertThat(lockNodes(client, path)).isEmpty();
	}

	private static LockRequest threadOwned(String path) {
		return LockRequest.of(path, LockMode.EXCLUSIVE).ownedBy(HoldOwner.THREAD);
	}

}
