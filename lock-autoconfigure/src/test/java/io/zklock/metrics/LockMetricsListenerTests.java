package io.zklock.metrics;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import io.zklock.annotation.SkippedCall;
import io.zklock.lock.LockMode;
import io.zklock.lock.ReleaseResult;
import io.zklock.lock.event.LockTarget;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LockMetricsListener} with events a real server cannot produce on cue (a
 * lock in doubt, confirmed or lost); the other events are tested end to end in
 * {@link io.zklock.autoconfigure.metrics.ZkLockMetricsAutoConfigurationTests}.
 */
class LockMetricsListenerTests {

	private final MeterRegistry registry = new SimpleMeterRegistry();

	private final LockMetricsListener listener = new LockMetricsListener(this.registry);

	@Test
	void shouldCountLostLocksAndRecordTheirHoldTimeAtRelease() {
		this.listener.onLost(TARGET, 7, Duration.ofSeconds(3));
		this.listener.onReleased(TARGET, 7, Duration.ofSeconds(4), ReleaseResult.LOST);
		assertThat(this.registry.get("zklock.lost").tags("lock", "orders", "mode", "read").counter().count())
			.isEqualTo(1);
		assertThat(this.registry.get("zklock.held").tags("lock", "orders", "mode", "read").timer()
			.totalTime(TimeUnit.SECONDS)).isEqualTo(4);
	}

	@Test
	void shouldCountLocksInDoubtAndTimeTheirConfirmationApartFromLostOnes() {
		this.listener.onInDoubt(TARGET, 7, Duration.ofSeconds(3));
		this.listener.onConfirmed(TARGET, 7, Duration.ofMillis(1500));
		this.listener.onInDoubt(TARGET, 7, Duration.ofSeconds(9));
		this.listener.onLost(TARGET, 7, Duration.ofSeconds(12));
		assertThat(this.registry.get("zklock.in.doubt").tags("lock", "orders", "mode", "read").counter().count())
			.isEqualTo(2);
		assertThat(this.registry.get("zklock.confirmed").tags("lock", "orders", "mode", "read").timer().count())
			.isEqualTo(1);
		assertThat(this.registry.get("zklock.confirmed").tags("lock", "orders", "mode", "read").timer()
			.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(1500);
		assertThat(this.registry.get("zklock.lost").tags("lock", "orders", "mode", "read").counter().count())
			.isEqualTo(1);
	}

	@Test
	void shouldRecordNothingForAcquiring() {
		this.listener.onAcquiring(TARGET);
		assertThat(this.registry.getMeters()).isEmpty();
	}

	@Test
	void shouldRecordNothingWhileThereIsNoRegistry() {
		LockMetricsListener withoutRegistry = new LockMetricsListener(() -> null);
		withoutRegistry.onAcquired(TARGET, 7, Duration.ofMillis(5));
		withoutRegistry.onSkipped(new SkippedCall("orders/42", "orders", LockMode.READ, Duration.ZERO, "Orders.ship()"));
		assertThat(this.registry.getMeters()).isEmpty();
	}

	@Test
	void shouldCountSkippedCallsBySemaphoreOrMode() {
		this.listener.onSkipped(new SkippedCall("orders/42", "orders", LockMode.READ, Duration.ZERO, "Orders.ship()"));
		this.listener.onSkipped(new SkippedCall("reports/1", "reports", null, Duration.ZERO, "Reports.render()"));
		assertThat(this.registry.get("zklock.skipped").tags("lock", "orders", "mode", "read").counter().count())
			.isEqualTo(1);
		assertThat(this.registry.get("zklock.skipped").tags("lock", "reports", "mode", "semaphore").counter().count())
			.isEqualTo(1);
	}

	@Test
	void shouldCountSkippedLeaderOnlyCallsByRoleWithModeLeader() {
		this.listener.onSkipped(new SkippedCall("billing-close", "billing-close", null, Duration.ZERO,
				"BillingJobs.close()", SkippedCall.Reason.NOT_LEADER));
		assertThat(this.registry.get("zklock.skipped").tags("lock", "billing-close", "mode", "leader").counter().count())
			.isEqualTo(1);
		assertThat(this.registry.find("zklock.skipped").tags("mode", "semaphore").counter()).isNull();
	}

	@Test
	void shouldTellWhyACallWasSkippedFromItsMode() {
		assertThat(new SkippedCall("orders/42", "orders", LockMode.READ, Duration.ZERO, "Orders.ship()").reason())
			.isEqualTo(SkippedCall.Reason.LOCK_BUSY);
		assertThat(new SkippedCall("reports/1", "reports", null, Duration.ZERO, "Reports.render()").reason())
			.isEqualTo(SkippedCall.Reason.NO_PERMIT);
	}

	@Test
	void shouldCountHoldsPastABoundByWhetherTheyWereReleased() {
		this.listener.onHoldExceeded(TARGET, 7, Duration.ofMinutes(11), Duration.ofMinutes(10), false);
		this.listener.onHoldExceeded(TARGET, 8, Duration.ofSeconds(12), Duration.ofSeconds(10), true);
		this.listener.onHoldExceeded(TARGET, 9, Duration.ofSeconds(13), Duration.ofSeconds(10), true);
		assertThat(this.registry.get("zklock.hold.exceeded").tags("lock", "orders", "mode", "read", "outcome", "held")
			.counter()
			.count()).isEqualTo(1);
		assertThat(this.registry.get("zklock.hold.exceeded")
			.tags("lock", "orders", "mode", "read", "outcome", "released")
			.counter()
			.count()).isEqualTo(2);
	}

	private static final LockTarget TARGET = new LockTarget("orders/42", "orders", LockMode.READ);

}
