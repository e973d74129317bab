package io.zklock.annotation;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.HoldOwner;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockAcquisitionException;
import io.zklock.lock.LockEngine;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockRequest;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The time-out of an annotated call says what its wait waited for, as
 * {@link ILockByCurator#acquire(LockRequest)} does: who holds the lock in this process, a
 * likely deadlock with the calling thread's own holds, or what the lock node of another process
 * says of its holder. Before, each read "Could not acquire the EXCLUSIVE lock on 'busy/1' within
 * 300 ms for Busy.quick(String)" and no more.
 */
@Timeout(60)
@Tag("slow")
class DistributedLockTimeoutMessageTests extends ZkAnnotationTest {

	private final ApplicationContextRunner contextRunner = lockingContext()
		.withUserConfiguration(BusyConfiguration.class);

	private final ExecutorService holderThread = Executors
		.newSingleThreadExecutor((task) -> new Thread(task, "holder-thread"));

	/** The other client's SafeNotifyService (Curator 5.9.0 leaks its own on close). */
	private final ExecutorService safeNotify = Executors.newSingleThreadExecutor();

	@AfterEach
	void stopThreads() throws InterruptedException {
		this.holderThread.shutdownNow();
		this.safeNotify.shutdownNow();
		assertThat(this.holderThread.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void shouldNameTheHolderOfThisProcess() {
		this.contextRunner.run((context) -> {
			CountDownLatch release = new CountDownLatch(1);
			Future<?> holder = holdOnOtherThread(context.getBean(ILockByCurator.class), "busy/1", release);
			try {
				assertThatExceptionOfType(LockAcquisitionException.class)
					.isThrownBy(() -> context.getBean(Busy.class).quick("1"))
					.withMessageStartingWith("Could not acquire the EXCLUSIVE lock on 'busy/1' within 300 ms for "
							+ "Busy.quick(String): it waited for this process's own EXCLUSIVE hold: thread "
							+ "'holder-thread' holds (thread-owned) since ");
			}
			finally {
				release.countDown();
				holder.get(10, TimeUnit.SECONDS);
			}
		});
	}

	@Test
	void shouldNameALikelyDeadlockWithTheCallersOwnHold() {
		this.contextRunner.run((context) -> {
			ILockByCurator locks = context.getBean(ILockByCurator.class);
			String caller = Thread.currentThread().getName();
			try (LockHandle held = locks.acquire(LockRequest.of("busy/2", LockMode.EXCLUSIVE).ownedBy(HoldOwner.CALL))) {
				assertThatExceptionOfType(LockAcquisitionException.class)
					.isThrownBy(() -> context.getBean(Busy.class).quick("2"))
					.withMessageStartingWith("Could not acquire the EXCLUSIVE lock on 'busy/2' within 300 ms for "
							+ "Busy.quick(String): it waited for a likely deadlock in this process: thread '" + caller
							+ "' waits for the EXCLUSIVE lock on 'busy/2'")
					.withMessageContaining("which a call-owned handle holds (acquired on thread '" + caller
							+ "'; any thread may release it)");
			}
		});
	}

	@Test
	void shouldSayWhatTheLockNodeOfAnotherProcessSaysOfItsHolder() {
		this.contextRunner.run((context) -> {
			try (CuratorFramework otherClient = startClient();
					LockEngine billing = LockEngine.builder(otherClient).rootPath("/locks").holder("billing", "b-1").build();
					LockHandle held = new ExclusiveLockByCurator(billing).acquire("busy/3", LockMode.EXCLUSIVE)) {
				assertThatExceptionOfType(LockAcquisitionException.class)
					.isThrownBy(() -> context.getBean(Busy.class).quick("3"))
					.withMessageStartingWith("Could not acquire the EXCLUSIVE lock on 'busy/3' within 300 ms for "
							+ "Busy.quick(String): it waited for lock node "
							+ held.nodePath().substring(held.nodePath().lastIndexOf('/') + 1)
							+ " (the holder's), which belongs to host ")
					.withMessageContaining(", process " + ProcessHandle.current().pid()
							+ ", application 'billing', instance 'b-1'");
			}
		});
	}

	@Test
	void shouldNameTheBusyLockAmongTheLocksOfTheCall() {
		this.contextRunner.run((context) -> {
			CountDownLatch release = new CountDownLatch(1);
			Future<?> holder = holdOnOtherThread(context.getBean(ILockByCurator.class), "pairs/b", release);
			try {
				assertThatExceptionOfType(LockAcquisitionException.class)
					.isThrownBy(() -> context.getBean(Busy.class).both(List.of("a", "b")))
					.withMessageStartingWith("Could not acquire the locks on ['pairs/a', 'pairs/b'] within 300 ms for "
							+ "Busy.both(List): it waited for 'pairs/b', this process's own EXCLUSIVE hold: thread "
							+ "'holder-thread' holds (thread-owned) since ");
			}
			finally {
				release.countDown();
				holder.get(10, TimeUnit.SECONDS);
			}
		});
	}

	/** Holds the lock on the holder thread, thread-owned, until {@code release}; returns once it holds. */
	private Future<?> holdOnOtherThread(ILockByCurator locks, String path, CountDownLatch release) throws Exception {
		CountDownLatch holding = new CountDownLatch(1);
		Future<?> holder = this.holderThread.submit(() -> {
			try (LockHandle held = locks.acquire(LockRequest.of(path, LockMode.EXCLUSIVE).ownedBy(HoldOwner.THREAD))) {
				holding.countDown();
				release.await(30, TimeUnit.SECONDS);
			}
			return null;
		});
		assertThat(holding.await(20, TimeUnit.SECONDS)).isTrue();
		return holder;
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

	static class Busy {

		@DistributedLock(path = "busy", key = "#id", waitTime = "300ms")
		public String quick(String id) {
			return id;
		}

		@DistributedLock(path = "pairs", key = "#ids", waitTime = "300ms")
		public List<String> both(List<String> ids) {
			return ids;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BusyConfiguration {

		@Bean
		Busy busy() {
			return new Busy();
		}

	}

}
