package io.zklock.autoconfigure;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.zklock.lock.HoldOwner;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockEngine;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockRequest;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A leaked lock (every handle of it became unreachable unreleased) does not hold up a graceful
 * shutdown: no code can release it, so zklock's shutdown phase does not wait for it, and the lock
 * engine releases it when the context closes it. Before, the phase waited the whole
 * {@code spring.lifecycle.timeout-per-shutdown-phase} (30 s by default) for a release that could
 * never come. Shown without timing: the phase's stop calls Spring's callback before it returns, on
 * the stopping thread, instead of handing the wait to a thread of its own.
 */
@Timeout(60)
@ExtendWith(OutputCaptureExtension.class)
class LeakedLockShutdownTests extends ZkServerTest {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkLockAutoConfiguration.class))
		.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString(),
				"spring.lifecycle.timeout-per-shutdown-phase=45s");

	@Test
	void shouldNotWaitForALeakedLockAndReleaseItWhenTheContextCloses(CapturedOutput output) {
		this.contextRunner.run((context) -> {
			ILockByCurator locks = context.getBean(ILockByCurator.class);
			leak(locks, "shutdown/leaked");
			awaitLeakReport(output, "shutdown/leaked");
			assertThat(context.getBean(LockEngine.class).getLeakedLocks()).singleElement()
				.satisfies((leaked) -> assertThat(leaked.lockPath()).isEqualTo("shutdown/leaked"));
			LockGrantingLifecycle lifecycle = context.getBean(LockGrantingLifecycle.class);
			AtomicReference<Thread> stoppedOn = new AtomicReference<>();
			lifecycle.stop(() -> stoppedOn.set(Thread.currentThread()));
			assertThat(stoppedOn.get()).as("the thread that ran Spring's stop callback, once stop returned")
				.isSameAs(Thread.currentThread());
			assertThat(lifecycle.isRunning()).isFalse();
			assertThat(output).contains("zklock stopped granting locks; not waiting for 1 held lock(s) (shutdown/leaked "
					+ "by " + Thread.currentThread().getName() + ") whose handles became unreachable without being "
					+ "released (leaked): no code can release them, so the lock engine releases them when it closes");
		});
		assertThat(output).contains("Released the EXCLUSIVE lock on 'shutdown/leaked' (fencing token ")
			.contains(" as the lock engine closes: every handle of it became unreachable without being released, so "
					+ "no code could release it (RELEASED)")
			.doesNotContain("zklock's shutdown wait");
	}

	/**
	 * A lock that running work still holds is waited for as before, beside a leaked one: the stop
	 * hands the wait to its thread and calls back once the work released the lock.
	 */
	@Test
	void shouldStillWaitForALockThatRunningWorkHolds(CapturedOutput output) {
		this.contextRunner.run((context) -> {
			ILockByCurator locks = context.getBean(ILockByCurator.class);
			leak(locks, "shutdown/leaked-beside");
			awaitLeakReport(output, "shutdown/leaked-beside");
			LockHandle running = locks.acquire(LockRequest.of("shutdown/running", LockMode.EXCLUSIVE));
			LockGrantingLifecycle lifecycle = context.getBean(LockGrantingLifecycle.class);
			AtomicReference<Thread> stoppedOn = new AtomicReference<>();
			lifecycle.stop(() -> stoppedOn.set(Thread.currentThread()));
			assertThat(stoppedOn.get()).as("no callback while running work holds a lock").isNull();
			assertThat(output).contains("waiting up to 45000 ms for 1 held lock(s) (shutdown/running by ");
			running.release();
			await().atMost(Duration.ofSeconds(20)).until(() -> stoppedOn.get() != null);
			assertThat(stoppedOn.get().getName()).isEqualTo("zklock-shutdown");
		});
	}

	/** Collects garbage until the leak of the handle on {@code path} is reported. */
	private static void awaitLeakReport(CapturedOutput output, String path) {
		await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
			System.gc();
			return output.toString().contains("A LockHandle of the EXCLUSIVE lock on '" + path + "' (fencing token ");
		});
	}

	/** Acquires a call-owned lock and drops its handle: nothing refers to it once this returns. */
	private static void leak(ILockByCurator locks, String path) {
		locks.acquire(LockRequest.of(path, LockMode.EXCLUSIVE).ownedBy(HoldOwner.CALL));
	}

}
