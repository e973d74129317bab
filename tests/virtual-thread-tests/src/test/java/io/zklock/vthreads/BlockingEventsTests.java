package io.zklock.vthreads;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The instrument of {@link VirtualThreadLockTests}: {@link BlockingEvents} does see a virtual
 * thread pinned to its carrier and one waiting in {@code Object.wait()}, and puts them down to the
 * code that blocked (for the wait, by the monitor's class: JDK 25 records it with no useful
 * stack), so that its zeros there mean none happened. (A virtual thread's contended
 * {@code synchronized} entry is not recorded at all on JDK 25, no {@code jdk.JavaMonitorEnter}
 * event even at threshold 0, so the recorder does not count those.)
 */
class BlockingEventsTests {

	@Test
	@Timeout(value = 1, unit = TimeUnit.MINUTES)
	void shouldRecordAPinnedVirtualThreadAndAMonitorWait() throws Exception {
		BlockingEvents jfr = BlockingEvents.start();
		try {
			// a class initializer still pins on JDK 24+: sleeping in it parks while pinned
			Thread.ofVirtual().start(() -> SleepsWhileInitialized.touch()).join();
			Monitor monitor = new Monitor();
			CountDownLatch waiting = new CountDownLatch(1);
			Thread waiter = Thread.ofVirtual().start(() -> {
				synchronized (monitor) {
					waiting.countDown();
					try {
						monitor.wait(50);
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				}
			});
			waiting.await();
			waiter.join();
			jfr.stop();
		}
		finally {
			jfr.close();
		}
		assertThat(jfr.byOrigin(BlockingEvents.PINNED)).as("%s", jfr.of(BlockingEvents.PINNED))
			.containsEntry(BlockingEvents.Origin.TEST, 1L);
		assertThat(jfr.of(BlockingEvents.PINNED).get(0).blockingFrame()).contains("SleepsWhileInitialized");
		assertThat(jfr.byOrigin(BlockingEvents.MONITOR_WAIT)).as("%s", jfr.of(BlockingEvents.MONITOR_WAIT))
			.containsEntry(BlockingEvents.Origin.TEST, 1L);
		assertThat(jfr.of(BlockingEvents.MONITOR_WAIT).get(0).blockingFrame()).contains("Monitor");
	}

	/** A monitor whose class is the test's. */
	static final class Monitor {

	}

	/** Sleeps in its static initializer. */
	static final class SleepsWhileInitialized {

		static {
			try {
				Thread.sleep(Duration.ofMillis(20));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

		static void touch() {
		}

	}

}
