package io.zklock.lock;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.fixtures.CapturedLog;
import io.zklock.lock.RecordingListener.Event;
import io.zklock.lock.RecordingListener.Type;
import io.zklock.lock.event.LockListener;
import io.zklock.lock.event.LockTarget;

import static io.zklock.lock.ZkTestSupport.AWAIT;
import static io.zklock.lock.ZkTestSupport.ROOT;
import static io.zklock.lock.ZkTestSupport.lockNodes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link LockRequest#holdAtMost(Duration)} on a handle of the lock API (against a hold that
 * never ends): a hold that outlives its bound is reported (a WARN naming the lock and the holder
 * thread, with its stack where the hold is thread-owned, and
 * {@link LockListener#onHoldExceeded}), and the lock stays held until the handle is released.
 */
@Timeout(60)
class HoldAtMostTests extends ZkServerTest {

	private static final String BREACH_LOGGER = "io.zklock.lock.internal.HoldBreach";

	private CapturedLog log;

	private final RecordingListener events = new RecordingListener();

	@BeforeEach
	void captureLog() {
		this.log = CapturedLog.of(BREACH_LOGGER);
	}

	@AfterEach
	void stopCapture() {
		this.log.close();
	}

	@Test
	void shouldReportAThreadOwnedHoldPastItsBoundWithTheHolderStackAndKeepTheLock() throws Exception {
		String path = "bound/thread";
		CuratorFramework client = this.clients.newClient();
		ExclusiveLockByCurator locks = locks(client);
		CountDownLatch finish = new CountDownLatch(1);
		AtomicReference<LockHandle> held = new AtomicReference<>();
		Thread holder = new Thread(() -> {
			LockHandle handle = locks.acquire(LockRequest.of(path, LockMode.EXCLUSIVE)
				.ownedBy(HoldOwner.THREAD)
				.holdAtMost(Duration.ofMillis(200)));
			held.set(handle);
			try {
				writeReport(finish);
			}
			finally {
				handle.release();
			}
		}, "report-writer");
		holder.start();

		Event breach = awaitBreach();
		LockHandle handle = held.get();
		assertThat(breach.lock()).isEqualTo(new LockTarget(path, "bound", LockMode.EXCLUSIVE));
		assertThat(breach.fencingToken()).isEqualTo(handle.fencingToken());
		assertThat(breach.duration()).isEqualTo(Duration.ofMillis(200));
		ILoggingEvent warning = singleWarning();
		assertThat(warning.getFormattedMessage())
			.startsWith("The EXCLUSIVE lock on '" + path + "' (fencing token " + handle.fencingToken()
					+ ") has been held for ")
			.contains(", past its holdAtMost of 200ms. zklock keeps it until its handle is released");
		IThrowableProxy stack = warning.getThrowableProxy();
		assertThat(stack.getMessage()).isEqualTo("Holder thread 'report-writer' (TIMED_WAITING) holds it, at");
		assertThat(Arrays.stream(stack.getStackTraceElementProxyArray()).map(Object::toString))
			.anyMatch((frame) -> frame.contains("HoldAtMostTests.writeReport"));

		assertThat(handle.isHeld()).as("the bound never releases the lock").isTrue();
		assertThat(lockNodes(client, path)).hasSize(1);
		ExclusiveLockByCurator rival = locks(this.clients.newClient());
		assertThat(rival.tryAcquire(path, LockMode.EXCLUSIVE, Duration.ZERO)).isEmpty();

		finish.countDown();
		holder.join(TimeUnit.SECONDS.toMillis(20));
		assertThat(rival.tryAcquire(path, LockMode.EXCLUSIVE, AWAIT)).hasValueSatisfying(LockHandle::release);
		assertThat(this.events.types()).containsOnlyOnce(Type.HOLD_EXCEEDED);
	}

	@Test
	void shouldNameTheAcquiringThreadOfACallOwnedHold() throws Exception {
		String path = "bound/call";
		CuratorFramework client = this.clients.newClient();
		ExclusiveLockByCurator locks = locks(client);
		LockHandle handle = locks
			.acquire(LockRequest.of(path, LockMode.READ).named("exports").holdAtMost(Duration.ofMillis(150)));

		Event breach = awaitBreach();
		assertThat(breach.lock()).isEqualTo(new LockTarget(path, "exports", LockMode.READ));
		ILoggingEvent warning = singleWarning();
		assertThat(warning.getFormattedMessage())
			.startsWith("The READ lock on '" + path + "' (fencing token " + handle.fencingToken() + ")")
			.endsWith("The hold is call-owned: thread '" + Thread.currentThread().getName() + "' acquired it, and "
					+ "whichever thread has the handle releases it, so no holder thread's stack is known.");
		assertThat(warning.getThrowableProxy()).isNull();
		assertThat(handle.isHeld()).isTrue();

		assertThat(this.clients.background(handle::release).get(10, TimeUnit.SECONDS))
			.isEqualTo(ReleaseResult.RELEASED);
		assertThat(lockNodes(client, path)).isEmpty();
	}

	@Test
	void shouldReportNothingForAHandleReleasedWithinItsBound() {
		ExclusiveLockByCurator locks = locks(this.clients.newClient());
		LockHandle early = locks.acquire(LockRequest.of("bound/early", LockMode.EXCLUSIVE)
			.holdAtMost(Duration.ofMillis(100)));
		early.release();
		// a later check on the same timer thread: once it has run, the earlier one would have too
		LockHandle late = locks.acquire(LockRequest.of("bound/late", LockMode.EXCLUSIVE)
			.holdAtMost(Duration.ofMillis(300)));

		Event breach = awaitBreach();
		assertThat(breach.lock().lockPath()).isEqualTo("bound/late");
		assertThat(this.events.types()).containsOnlyOnce(Type.HOLD_EXCEEDED);
		assertThat(singleWarning().getFormattedMessage()).contains("'bound/late'");
		late.release();
	}

	@Test
	void shouldBoundAReentrantHandleFromItsOwnAcquire() {
		String path = "bound/reentrant";
		CuratorFramework client = this.clients.newClient();
		ExclusiveLockByCurator locks = locks(client);
		LockRequest request = LockRequest.of(path, LockMode.EXCLUSIVE).ownedBy(HoldOwner.THREAD);
		try (LockHandle outer = locks.acquire(request)) {
			LockHandle inner = locks.acquire(request.holdAtMost(Duration.ofMillis(150)));

			Event breach = awaitBreach();
			assertThat(breach.fencingToken()).isEqualTo(outer.fencingToken());
			assertThat(singleWarning().getThrowableProxy().getMessage())
				.startsWith("Holder thread '" + Thread.currentThread().getName() + "'");
			assertThat(inner.release()).isEqualTo(ReleaseResult.STILL_HELD);
		}
		assertThat(lockNodes(client, path)).isEmpty();
	}

	@Test
	void shouldSayWhenTheHolderThreadEndedWithoutReleasing() throws Exception {
		String path = "bound/abandoned";
		CuratorFramework client = this.clients.newClient();
		ExclusiveLockByCurator locks = locks(client);
		AtomicReference<LockHandle> held = new AtomicReference<>();
		Thread holder = new Thread(() -> held.set(locks.acquire(LockRequest.of(path, LockMode.EXCLUSIVE)
			.ownedBy(HoldOwner.THREAD)
			.holdAtMost(Duration.ofMillis(150)))), "forgetful-holder");
		holder.start();
		holder.join(TimeUnit.SECONDS.toMillis(20));

		awaitBreach();
		assertThat(singleWarning().getFormattedMessage()).endsWith("Its holder thread 'forgetful-holder' has ended "
				+ "without releasing it: the lock stays held until the handle is released or the session ends.");
		assertThat(lockNodes(client, path)).hasSize(1);
		assertThat(held.get().release()).isEqualTo(ReleaseResult.RELEASED);
		assertThat(lockNodes(client, path)).isEmpty();
	}

	private ExclusiveLockByCurator locks(CuratorFramework client) {
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(client, ROOT);
		locks.engine().addListener(this.events);
		return locks;
	}

	private Event awaitBreach() {
		await().atMost(AWAIT).until(() -> this.events.types().contains(Type.HOLD_EXCEEDED));
		return this.events.events().stream().filter((event) -> event.type() == Type.HOLD_EXCEEDED).findFirst()
			.orElseThrow();
	}

	private ILoggingEvent singleWarning() {
		List<ILoggingEvent> warnings = this.log.events()
			.stream()
			.filter((event) -> event.getLevel() == Level.WARN)
			.toList();
		assertThat(warnings).hasSize(1);
		return warnings.get(0);
	}

	private static void writeReport(CountDownLatch finish) {
		try {
			finish.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
