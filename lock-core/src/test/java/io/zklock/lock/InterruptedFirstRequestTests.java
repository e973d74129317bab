package io.zklock.lock;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.fixtures.CapturedLog;

import static io.zklock.lock.ZkTestSupport.AWAIT;
import static io.zklock.lock.ZkTestSupport.ROOT;
import static io.zklock.lock.ZkTestSupport.lockNodes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Curator makes sure a client's namespace exists with a blocking {@code mkdirs} at the client's
 * first request, on the thread that builds the request, even for a background call. If that is
 * an acquiring thread and it is interrupted there, Curator logs {@code ERROR Ensure path threw
 * exception} with the {@code InterruptedException}'s stack trace. An interrupted acquire is a
 * normal outcome: no ERROR, no stack trace, and no blocking call on the caller's thread. The
 * namespace's {@code exists} is held at the client boundary ({@link FaultyZooKeeper}) until the
 * test lets it go, so the interrupt lands while it is under way, whichever thread makes it.
 */
@Timeout(60)
@Tag("slow")
class InterruptedFirstRequestTests extends ZkServerTest {

	private CapturedLog log;

	@BeforeEach
	void captureLog() {
		this.log = CapturedLog.of(org.slf4j.Logger.ROOT_LOGGER_NAME);
	}

	@AfterEach
	void stopCapture() {
		this.log.close();
	}

	@Test
	void shouldLogNoErrorAndBlockNoCallerWhenTheFirstAcquireIsInterrupted() throws Exception {
		FaultyZooKeeper.Faults faults = new FaultyZooKeeper.Faults("/" + ZkTestSupport.NAMESPACE + ROOT);
		faults.stallExistsOf = "/" + ZkTestSupport.NAMESPACE;
		CuratorFramework client = this.clients.newClient((builder) -> builder
			.zookeeperFactory(FaultyZooKeeper.factory(faults)));
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(client, ROOT);
		AtomicReference<Thread> caller = new AtomicReference<>();

		Future<Throwable> acquire = this.clients.background(() -> {
			caller.set(Thread.currentThread());
			try {
				locks.acquire("reports", LockMode.EXCLUSIVE).release();
				return null;
			}
			catch (LockAcquisitionException ex) {
				return ex;
			}
		});
		// the namespace's exists is under way (on some thread) and the caller waits
		await().atMost(AWAIT).until(() -> !faults.existsStalledOn.isEmpty() && caller.get() != null
				&& caller.get().getState() == Thread.State.WAITING);
		caller.get().interrupt();
		Throwable failure = acquire.get(20, TimeUnit.SECONDS);
		faults.releaseExists.countDown();

		List<ILoggingEvent> noisy = this.log.events().stream()
			.filter((event) -> event.getLevel().isGreaterOrEqual(Level.ERROR)
					|| (event.getLevel().isGreaterOrEqual(Level.WARN) && event.getThrowableProxy() != null))
			.toList();
		System.out.printf("[figures] interrupted first acquire: %d ERROR or WARN-with-stack-trace lines %s%n",
				noisy.size(), noisy.stream().map(ILoggingEvent::getFormattedMessage).toList());
		assertThat(failure).isInstanceOf(LockAcquisitionException.class)
			.hasRootCauseInstanceOf(InterruptedException.class);
		assertThat(faults.existsStalledOn).as("the caller's thread made no blocking call").doesNotContain(caller.get());
		assertThat(noisy).as("nothing logged as an error").isEmpty();

		// the namespace is made once the exists returns: locks work, nothing was left behind
		locks.tryAcquire("reports", LockMode.EXCLUSIVE, Duration.ofSeconds(10)).orElseThrow().release();
		await().atMost(AWAIT).until(() -> lockNodes(client, "reports").isEmpty());
	}

	@Test
	void shouldLogNoErrorWhenTheClientClosesRightAfterTheEngine() throws Exception {
		// the engine makes the namespace on a thread of its own; an engine and its client closed
		// right after it started (a short-lived Spring context closes them in this order) must not
		// make Curator log 'Ensure path threw exception' (Client is not started)
		for (int i = 0; i < 20; i++) {
			CuratorFramework client = this.clients.newClient();
			new ExclusiveLockByCurator(client, ROOT).engine().close();
			client.close();
		}
		// nothing logged as an error, also for a while after the closes (a late first request would log then)
		await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(
				this.log.events().stream().filter((event) -> event.getLevel().isGreaterOrEqual(Level.ERROR)).toList())
			.as("nothing logged as an error")
			.extracting(ILoggingEvent::getFormattedMessage)
			.isEmpty());
	}

}
