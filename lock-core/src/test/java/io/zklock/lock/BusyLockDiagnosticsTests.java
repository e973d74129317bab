package io.zklock.lock;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.zklock.fixtures.CapturedLog;
import io.zklock.internal.LockNodeData;
import io.zklock.lock.event.HeldLock;

import ch.qos.logback.classic.Level;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.zklock.lock.ZkTestSupport.AWAIT;
import static io.zklock.lock.ZkTestSupport.ROOT;
import static io.zklock.lock.ZkTestSupport.awaitQueued;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A busy lock says who holds it: a wait that runs out names the holder of this
 * process (thread, since when, where acquired) or what the blocking lock node of another process
 * says of its holder (host, process, application); a deadlock among this process's threads fails
 * the acquire that closes it at once, naming the cycle, and a likely one (through a call-owned
 * hold) is named in the time-out; a leaked handle is reported when it becomes unreachable, and a
 * hold past the leak-detection threshold with its holder. Before, all of these read "Could not
 * acquire the EXCLUSIVE lock on 'leak' within 2s", and a leak said nothing until shutdown.
 */
@Timeout(90)
@Tag("slow")
class BusyLockDiagnosticsTests extends ZkServerTest {

	private static final Duration SHORT = Duration.ofMillis(300);

	private final ExecutorService threads = Executors.newCachedThreadPool();

	private CapturedLog log;

	@BeforeEach
	void captureLogs() {
		this.log = CapturedLog.atLevel(Level.INFO, "io.zklock.lock.internal.LeakWatch",
				"io.zklock.lock.internal.HoldBreach", "io.zklock.lock.internal.ClientLocks");
	}

	@AfterEach
	void stop() {
		this.log.close();
		this.threads.shutdownNow();
	}

	@Test
	void shouldNameTheHolderOfThisProcessWhenAWaitRunsOut() {
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		LockHandle held = locks.acquire(LockRequest.of("busy/local", LockMode.EXCLUSIVE).ownedBy(HoldOwner.CALL));
		String holder = Thread.currentThread().getName();
		try {
			// another thread waits: on this thread the wait would close a likely deadlock with its own hold
			Future<LockHandle> waiter = this.threads
				.submit(() -> locks.acquire(LockRequest.of("busy/local", LockMode.EXCLUSIVE).waitAtMost(SHORT)));
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> unwrap(waiter))
				.withMessageStartingWith("Could not acquire the EXCLUSIVE lock on 'busy/local' within 300ms: it waited for "
						+ "this process's own EXCLUSIVE hold: a call-owned handle holds (acquired on thread '" + holder)
				.withMessageContaining("acquired at io.zklock.lock.BusyLockDiagnosticsTests."
						+ "shouldNameTheHolderOfThisProcessWhenAWaitRunsOut(BusyLockDiagnosticsTests.java:");
		}
		finally {
			held.release();
		}
	}

	@Test
	void shouldSayWhatTheLockNodeOfAnotherProcessSaysOfItsHolder() {
		CuratorFramework other = this.clients.newClient();
		LockEngine billing = LockEngine.builder(other).rootPath(ROOT).holder("billing", "b-1").build();
		LockHandle held = new ExclusiveLockByCurator(billing).acquire("busy/remote", LockMode.EXCLUSIVE);
		try {
			ExclusiveLockByCurator locks = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> locks.acquire(LockRequest.of("busy/remote", LockMode.EXCLUSIVE).waitAtMost(SHORT)))
				.withMessageContaining("it waited for lock node "
						+ held.nodePath().substring(held.nodePath().lastIndexOf('/') + 1) + " (the holder's), which belongs "
						+ "to host ")
				.withMessageContaining(", process " + ProcessHandle.current().pid()
						+ ", application 'billing', instance 'b-1' (created ")
				.withMessageContaining("as a waiter of this process last saw it at ");
		}
		finally {
			held.release();
		}
	}

	@Test
	void shouldDescribeNodeDataOfCuratorAndOfNone() {
		assertThat(LockNodeData.describe("10.0.0.5".getBytes(StandardCharsets.UTF_8))).isEqualTo("node data '10.0.0.5'");
		assertThat(LockNodeData.describe(new byte[0])).isEqualTo("no node data");
		assertThat(LockNodeData.describe("zklock host=a b pid=7 app=x".getBytes(StandardCharsets.UTF_8)))
			.isEqualTo("host a, process 7, application 'x'");
		assertThat(new String(LockNodeData.forThisProcess("my app", null), StandardCharsets.UTF_8))
			.startsWith("zklock host=")
			.endsWith(" pid=" + ProcessHandle.current().pid() + " app=my_app");
	}

	/**
	 * x then y on one thread, y then x on another, both without a wait limit: the acquire that
	 * closes the cycle fails at once, naming both threads, both locks and where they were acquired;
	 * the other goes on. (Waits with a limit are never failed for a cycle: DeadlockDetectionTests.)
	 */
	@Test
	void shouldFailTheAcquireThatClosesADeadlockAtOnceNamingTheCycle() throws Exception {
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		CuratorFramework observer = this.clients.newClient();
		CountDownLatch bothHold = new CountDownLatch(2);
		Future<String> first = this.threads.submit(() -> {
			Thread.currentThread().setName("deadlock-first");
			try (LockHandle x = locks.acquire(threadOwned("deadlock/x"))) {
				bothHold.countDown();
				bothHold.await();
				try (LockHandle y = locks.acquire(threadOwned("deadlock/y"))) {
					return "granted";
				}
			}
		});
		Future<String> second = this.threads.submit(() -> {
			Thread.currentThread().setName("deadlock-second");
			try (LockHandle y = locks.acquire(threadOwned("deadlock/y"))) {
				bothHold.countDown();
				bothHold.await();
				awaitQueued(observer, "deadlock/y", 2);
				locks.acquire(threadOwned("deadlock/x"));
				return "granted";
			}
			catch (LockDeadlockException ex) {
				return ex.getMessage();
			}
		});
		assertThat(second.get(20, TimeUnit.SECONDS)).as("the acquire that closed the cycle, at once")
			.startsWith("Deadlock in this process: thread 'deadlock-second' waits for the EXCLUSIVE lock on 'deadlock/x'")
			.contains("which thread 'deadlock-first' holds (thread-owned)")
			.contains("thread 'deadlock-first' waits for the EXCLUSIVE lock on 'deadlock/y'")
			.contains("which thread 'deadlock-second' holds (thread-owned)")
			.contains("take these locks in one order everywhere");
		assertThat(first.get(20, TimeUnit.SECONDS)).as("the other thread goes on").isEqualTo("granted");
	}

	/**
	 * A thread holds a lock through a call-owned handle and asks for it again: another thread may
	 * release that handle, so the wait is not failed, but its time-out says this thread holds it
	 * itself; without a limit, the wait is warned of at once.
	 */
	@Test
	void shouldSayWhenAThreadWaitsForALockItHoldsItselfThroughACallOwnedHandle() throws Exception {
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		LockHandle held = locks.acquire(LockRequest.of("busy/self", LockMode.EXCLUSIVE).ownedBy(HoldOwner.CALL));
		try {
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> locks.acquire(LockRequest.of("busy/self", LockMode.EXCLUSIVE)
					.ownedBy(HoldOwner.CALL)
					.waitAtMost(SHORT)))
				.withMessageContaining("it waited for a likely deadlock in this process: thread '"
						+ Thread.currentThread().getName() + "' waits for the EXCLUSIVE lock on 'busy/self'")
				.withMessageContaining("which a call-owned handle holds (acquired on thread '"
						+ Thread.currentThread().getName() + "'; any thread may release it)")
				.withMessageContaining("unless another thread releases the call-owned handle on the cycle");

			Future<Optional<LockHandle>> unlimited = this.threads.submit(() -> {
				Thread.currentThread().setName("self-waiter");
				LockHandle mine = locks.acquire(LockRequest.of("busy/self-unlimited", LockMode.EXCLUSIVE)
					.ownedBy(HoldOwner.CALL));
				try {
					return locks.tryAcquire(LockRequest.of("busy/self-unlimited", LockMode.EXCLUSIVE)
						.ownedBy(HoldOwner.CALL)
						.waitAtMost(Duration.ofSeconds(2)));
				}
				finally {
					mine.release();
				}
			});
			assertThat(unlimited.get(20, TimeUnit.SECONDS)).isEmpty();
			Future<?> without = this.threads.submit(() -> {
				LockHandle mine = locks.acquire(LockRequest.of("busy/self-unlimited", LockMode.EXCLUSIVE)
					.ownedBy(HoldOwner.CALL));
				try {
					locks.acquire(LockRequest.of("busy/self-unlimited", LockMode.EXCLUSIVE).ownedBy(HoldOwner.CALL));
				}
				finally {
					mine.release();
				}
				return null;
			});
			await().atMost(AWAIT).until(() -> messages(Level.WARN).stream()
				.anyMatch((message) -> message.startsWith("Likely deadlock in this process: thread '")
						&& message.contains("waits without a limit")));
			without.cancel(true);
		}
		finally {
			held.release();
		}
	}

	@Test
	void shouldReportAHandleThatBecameUnreachableWithoutRelease() {
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		leak(locks);
		await().atMost(AWAIT).pollInterval(Duration.ofMillis(100)).until(() -> {
			System.gc();
			return messages(Level.ERROR).stream()
				.anyMatch((message) -> message.startsWith("A LockHandle of the EXCLUSIVE lock on 'leaky' (fencing token ")
						&& message.contains("became unreachable without being released")
						&& message.contains("acquired at io.zklock.lock.BusyLockDiagnosticsTests.leak("));
		});
	}

	/**
	 * A loss listener does not keep its handle reachable: before, the hold's loss callbacks
	 * referred to the handle, and the engine to the hold, so such a leak was never reported.
	 */
	@Test
	void shouldReportALeakedHandleThatHasALossListener() {
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		leak(locks, LockRequest.of("leaky/listened", LockMode.EXCLUSIVE), true);
		awaitLeakReport("leaky/listened");
	}

	/**
	 * A hold bound does not keep its handle reachable until the bound is due: before, the
	 * bound's check referred to the handle, so a leak was reported only once it ran, here after
	 * ten minutes.
	 */
	@Test
	void shouldReportALeakedHandleWithAHoldBoundBeforeTheBoundIsDue() {
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		leak(locks, LockRequest.of("leaky/bounded", LockMode.EXCLUSIVE).holdAtMost(Duration.ofMinutes(10)), false);
		awaitLeakReport("leaky/bounded");
	}

	/** Likewise the engine's leak-detection threshold. */
	@Test
	void shouldReportALeakedHandleUnderALeakThresholdBeforeItIsDue() {
		LockEngine engine = LockEngine.builder(this.clients.newClient())
			.rootPath(ROOT)
			.leakDetection(true, Duration.ofMinutes(10))
			.build();
		leak(new ExclusiveLockByCurator(engine), LockRequest.of("leaky/threshold", LockMode.EXCLUSIVE), true);
		awaitLeakReport("leaky/threshold");
	}

	/**
	 * A bound that passes after its handle was collected is still reported, saying that no code
	 * can release the hold: it has no handle to give a reaction.
	 */
	@Test
	void shouldReportTheBoundOfAHoldWhoseHandleWasCollected() {
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		leak(locks, LockRequest.of("leaky/late-bound", LockMode.EXCLUSIVE).holdAtMost(Duration.ofSeconds(5)), false);
		awaitLeakReport("leaky/late-bound");
		await().atMost(AWAIT).until(() -> messages(Level.WARN).stream()
			.anyMatch((message) -> message.startsWith("The EXCLUSIVE lock on 'leaky/late-bound' (fencing token ")
					&& message.contains("past its holdAtMost of 5s")
					&& message.contains("Its handle became unreachable without being released (reported then as a "
							+ "leak), so no code can release it")));
	}

	/**
	 * A hold whose every handle leaked is known as leaked (listeners told, {@code getLeakedLocks})
	 * and released when the engine closes, its lock node deleted; a hold with another open handle
	 * is neither.
	 */
	@Test
	void shouldReleaseALeakedHoldWhenTheEngineCloses() throws Exception {
		CuratorFramework client = this.clients.newClient();
		LockEngine engine = new LockEngine(client, ROOT);
		RecordingListener events = new RecordingListener();
		engine.addListener(events);
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(engine);
		leak(locks, LockRequest.of("leaky/closed", LockMode.EXCLUSIVE), false);
		LockHandle kept = locks.acquire(LockRequest.of("leaky/kept", LockMode.EXCLUSIVE).ownedBy(HoldOwner.THREAD));
		leak(locks, LockRequest.of("leaky/kept", LockMode.EXCLUSIVE).ownedBy(HoldOwner.THREAD), false);
		awaitLeakReport("leaky/closed");
		awaitLeakReport("leaky/kept");
		assertThat(events.events()).filteredOn((event) -> event.type() == RecordingListener.Type.LEAKED)
			.extracting((event) -> event.lock().lockPath())
			.containsExactlyInAnyOrder("leaky/closed", "leaky/kept");
		assertThat(engine.getLeakedLocks()).extracting(HeldLock::lockPath).containsExactly("leaky/closed");
		assertThat(ZkTestSupport.lockNodes(client, "leaky/closed")).hasSize(1);

		engine.close();
		assertThat(ZkTestSupport.lockNodes(client, "leaky/closed")).as("the leaked hold's node").isEmpty();
		assertThat(engine.getHeldLocks()).extracting(HeldLock::lockPath).containsExactly("leaky/kept");
		assertThat(messages(Level.WARN)).anyMatch((message) -> message.startsWith("Released the EXCLUSIVE lock on "
				+ "'leaky/closed' (fencing token ") && message.endsWith(" as the lock engine closes: every handle of it "
						+ "became unreachable without being released, so no code could release it (RELEASED)"));
		assertThat(kept.release()).isEqualTo(ReleaseResult.STILL_HELD);
	}

	@Test
	void shouldReportAHoldPastTheLeakDetectionThresholdWithItsHolder() {
		LockEngine engine = LockEngine.builder(this.clients.newClient())
			.rootPath(ROOT)
			.leakDetection(true, Duration.ofMillis(200))
			.build();
		LockHandle held = new ExclusiveLockByCurator(engine).acquire(threadOwned("long-hold"));
		String holder = Thread.currentThread().getName();
		try {
			await().atMost(AWAIT).until(() -> messages(Level.WARN).stream()
				.anyMatch((message) -> message.startsWith("The EXCLUSIVE lock on 'long-hold' (fencing token ")
						&& message.contains("past the leak-detection threshold of 200ms: thread '" + holder
								+ "' holds (thread-owned)")
						&& message.contains("acquired at io.zklock.lock.BusyLockDiagnosticsTests.")));
		}
		finally {
			held.release();
		}
	}

	private static LockRequest threadOwned(String path) {
		return LockRequest.of(path, LockMode.EXCLUSIVE).ownedBy(HoldOwner.THREAD);
	}

	/** Acquires and drops the handle: nothing refers to it once this returns. */
	private static void leak(ILockByCurator locks) {
		locks.acquire(LockRequest.of("leaky", LockMode.EXCLUSIVE).ownedBy(HoldOwner.CALL));
	}

	/** Acquires as {@code request} says, with a loss listener if asked, and drops the handle. */
	private static void leak(ILockByCurator locks, LockRequest request, boolean lossListener) {
		LockHandle handle = locks.acquire(request);
		if (lossListener) {
			handle.onLost((lost) -> {
			});
		}
	}

	/** Collects garbage until the leak of a handle on {@code lockPath} is reported. */
	private void awaitLeakReport(String lockPath) {
		await().atMost(AWAIT).pollInterval(Duration.ofMillis(100)).until(() -> {
			System.gc();
			return messages(Level.ERROR).stream()
				.anyMatch((message) -> message.startsWith("A LockHandle of the EXCLUSIVE lock on '" + lockPath
						+ "' (fencing token ") && message.contains("became unreachable without being released"));
		});
	}

	private List<String> messages(Level level) {
		return this.log.messages(level);
	}

	private static <T> T unwrap(Future<T> future) throws Throwable {
		try {
			return future.get(30, TimeUnit.SECONDS);
		}
		catch (ExecutionException ex) {
			throw ex.getCause();
		}
	}

}
