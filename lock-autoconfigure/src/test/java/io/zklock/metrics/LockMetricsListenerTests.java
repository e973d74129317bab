package io.zklock.metrics;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import io.zklock.lock.LockEvent;
import io.zklock.lock.LockMode;
import io.zklock.lock.ReleaseResult;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LockMetricsListener} with events a real server cannot produce on cue (a
 * lost lock); the other events are tested end to end in
 * {@link io.zklock.autoconfigure.metrics.ZkLockMetricsAutoConfigurationTests}.
 */
class LockMetricsListenerTests {

	private final MeterRegistry registry = new SimpleMeterRegistry();

	private final LockMetricsListener listener = new LockMetricsListener(this.registry);

	@Test
	void shouldCountLostLocksAndRecordTheirHoldTimeAtRelease() {
		this.listener.onEvent(event(LockEvent.Type.LOST, Duration.ofSeconds(3), null));
		this.listener.onEvent(event(LockEvent.Type.RELEASED, Duration.ofSeconds(4), ReleaseResult.LOST));
		assertThat(this.registry.get("zklock.lost").tags("lock", "orders", "mode", "read").counter().count())
			.isEqualTo(1);
		assertThat(this.registry.get("zklock.held").tags("lock", "orders", "mode", "read").timer()
			.totalTime(TimeUnit.SECONDS)).isEqualTo(4);
	}

	@Test
	void shouldRecordNothingForAcquiring() {
		this.listener.onEvent(event(LockEvent.Type.ACQUIRING, Duration.ZERO, null));
		assertThat(this.registry.getMeters()).isEmpty();
	}

	@Test
	void shouldRecordNothingWhileThereIsNoRegistry() {
		LockMetricsListener withoutRegistry = new LockMetricsListener(() -> null);
		withoutRegistry.onEvent(event(LockEvent.Type.ACQUIRED, Duration.ofMillis(5), null));
		assertThat(this.registry.getMeters()).isEmpty();
	}

	private static LockEvent event(LockEvent.Type type, Duration duration, ReleaseResult result) {
		return new LockEvent(type, "orders/42", "orders", LockMode.READ, 7, duration, result, null);
	}

}
