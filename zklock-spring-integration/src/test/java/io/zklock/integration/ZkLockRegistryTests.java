package io.zklock.integration;

import java.time.Duration;
import java.util.ConcurrentModificationException;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.zklock.fixtures.Sessions;
import io.zklock.lock.ExclusiveLockByCurator;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * {@link ZkLockRegistry} on a real server, two instances (two clients): reentrancy, exclusion,
 * fencing tokens, key encoding, and what a lost hold answers.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@Tag("slow")
class ZkLockRegistryTests {

	private TestingServer server;

	private CuratorFramework client1;

	private CuratorFramework client2;

	private ZkLockRegistry registry1;

	private ZkLockRegistry registry2;

	@BeforeEach
	void start() throws Exception {
		this.server = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, 200, -1), true);
		this.client1 = client();
		this.client2 = client();
		this.registry1 = new ZkLockRegistry(new ExclusiveLockByCurator(this.client1, "/locks"));
		this.registry2 = new ZkLockRegistry(new ExclusiveLockByCurator(this.client2, "/locks"));
	}

	private CuratorFramework client() {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(this.server.getConnectString())
			.sessionTimeoutMs(2000)
			.retryPolicy(new ExponentialBackoffRetry(100, 3))
			.build();
		client.start();
		return client;
	}

	@AfterEach
	void stop() throws Exception {
		this.client1.close();
		this.client2.close();
		this.server.close();
	}

	@Test
	void shouldLockReentrantlyPerThreadAndExcludeTheOtherInstance() {
		FencedLock lock = this.registry1.obtain("orders");
		lock.lock();
		assertThat(this.registry1.obtain("orders").tryLock()).as("re-entered through another view").isTrue();
		assertThat(this.registry2.obtain("orders").tryLock()).as("the other instance").isFalse();
		lock.unlock();
		assertThat(lock.isHeldByCurrentThread()).isTrue();
		assertThat(this.registry2.obtain("orders").tryLock()).isFalse();
		lock.unlock();
		assertThat(lock.isHeldByCurrentThread()).isFalse();
		FencedLock other = this.registry2.obtain("orders");
		assertThat(other.tryLock()).isTrue();
		other.unlock();
	}

	@Test
	void shouldRefuseAnUnlockWithoutAHold() {
		FencedLock lock = this.registry1.obtain("orders");
		lock.lock();
		CompletableFuture<Void> otherThread = CompletableFuture.runAsync(lock::unlock);
		assertThat(otherThread).failsWithin(Duration.ofSeconds(10))
			.withThrowableOfType(java.util.concurrent.ExecutionException.class)
			.withCauseInstanceOf(IllegalMonitorStateException.class)
			.withMessageContaining("does not hold the lock 'orders'");
		lock.unlock();
	}

	@Test
	void shouldGiveTheHoldsFencingTokenToTheHolderAndToAnyThread() throws Exception {
		FencedLock lock = this.registry1.obtain("leader");
		lock.lock();
		long token = lock.fencingToken();
		OptionalLong seenElsewhere = CompletableFuture.supplyAsync(() -> this.registry1.fencingToken("leader")).get();
		assertThat(seenElsewhere).hasValue(token);
		assertThat(this.registry2.fencingToken("leader")).isEmpty();
		lock.unlock();
		assertThat(this.registry1.fencingToken("leader")).isEmpty();
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(lock::fencingToken)
			.withMessageContaining("does not hold the lock 'leader'");
		FencedLock next = this.registry2.obtain("leader");
		next.lock();
		assertThat(next.fencingToken()).as("the next holder's token").isGreaterThan(token);
		next.unlock();
	}

	@Test
	void shouldLockAKeyAsOneEncodedSegmentUnderThePrefix() {
		assertThat(this.registry1.lockPath("orders/42")).isEqualTo("spring-integration/orders%2F42");
		assertThat(new ZkLockRegistry(new ExclusiveLockByCurator(this.client1, "/locks"), "")
			.lockPath("..")).isEqualTo("%2E%2E");
		assertThatIllegalArgumentException().isThrownBy(() -> this.registry1.obtain(42))
			.withMessageContaining("Lock key '42' of type java.lang.Integer is invalid");
		assertThatIllegalArgumentException().isThrownBy(() -> this.registry1.obtain(""))
			.withMessageContaining("Lock key '' is invalid");
	}

	@Test
	void shouldAnswerTryLockFalseOnceTheHoldIsLostThenQueueAgain() throws Exception {
		FencedLock lock = this.registry1.obtain("leader");
		lock.lock();
		long lostToken = lock.fencingToken();
		Sessions.expire(this.client1, this.server.getConnectString());
		await().atMost(Duration.ofSeconds(10)).until(() -> !lock.isHeldByCurrentThread());
		assertThat(lock.tryLock()).as("tryLock from the owner of a lost hold").isFalse();
		FencedLock other = this.registry2.obtain("leader");
		assertThat(other.tryLock(10, TimeUnit.SECONDS)).as("the other instance").isTrue();
		other.unlock();
		assertThat(lock.tryLock(10, TimeUnit.SECONDS)).as("queued again").isTrue();
		assertThat(lock.fencingToken()).isGreaterThan(lostToken);
		lock.unlock();
		assertThatExceptionOfType(ConcurrentModificationException.class).isThrownBy(lock::unlock)
			.withMessageContaining("fencing token " + lostToken + ") was lost while held");
		assertThatExceptionOfType(IllegalMonitorStateException.class).isThrownBy(lock::unlock);
	}

	@Test
	void shouldQueueAgainOnLockAndThrowOnTheUnlockThatEndsTheLostHold() throws Exception {
		FencedLock lock = this.registry1.obtain("orders");
		lock.lock();
		Sessions.expire(this.client1, this.server.getConnectString());
		await().atMost(Duration.ofSeconds(10)).until(() -> !lock.isHeldByCurrentThread());
		lock.lock();
		assertThat(lock.isHeldByCurrentThread()).as("held again after lock()").isTrue();
		assertThat(this.registry2.obtain("orders").tryLock()).isFalse();
		lock.unlock();
		assertThatExceptionOfType(ConcurrentModificationException.class).isThrownBy(lock::unlock);
		assertThat(this.registry2.obtain("orders").tryLock()).isTrue();
	}

	@Test
	void shouldThrowOnTheUnlockOfAHoldLostWhileHeld() throws Exception {
		FencedLock lock = this.registry1.obtain("orders");
		lock.lock();
		Sessions.expire(this.client1, this.server.getConnectString());
		await().atMost(Duration.ofSeconds(10)).until(() -> !lock.isHeldByCurrentThread());
		assertThatExceptionOfType(ConcurrentModificationException.class).isThrownBy(lock::unlock)
			.withMessageContaining("The lock 'orders' (lock path 'spring-integration/orders'");
		assertThatExceptionOfType(IllegalMonitorStateException.class).isThrownBy(lock::unlock);
	}

}
