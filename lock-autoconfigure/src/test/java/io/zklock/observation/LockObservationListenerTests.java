package io.zklock.observation;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.lock.LockAcquisitionException;
import io.zklock.lock.LockMode;
import io.zklock.lock.ReleaseResult;
import io.zklock.lock.event.LockTarget;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LockObservationListener}'s per-thread bookkeeping, with event sequences a
 * real engine produces only on an {@link Error}; real acquires are tested in
 * {@link io.zklock.autoconfigure.observation.ZkLockObservationAutoConfigurationTests}.
 */
class LockObservationListenerTests {

	private final RecordingHandler handler = new RecordingHandler();

	private final ObservationRegistry registry = ObservationRegistry.create();

	private final LockObservationListener listener = new LockObservationListener(this.registry);

	LockObservationListenerTests() {
		this.registry.observationConfig().observationHandler(this.handler);
	}

	@Test
	void shouldStopObservationOfAnAcquireWithoutEndAtTheNextEnd() {
		this.listener.onAcquiring(target("a"));
		// no end for "a": an Error was thrown inside its acquire
		this.listener.onAcquiring(target("b"));
		assertThat(this.listener.openOnCurrentThread()).isEqualTo(2);
		this.listener.onAcquired(target("b"), 0, Duration.ZERO);
		assertThat(this.listener.openOnCurrentThread()).isZero();
		assertThat(this.handler.stopped).containsExactlyInAnyOrderElementsOf(this.handler.started);
		LockAcquisitionContext a = this.handler.started.get(0);
		assertThat(a.getLockPath()).isEqualTo("a");
		assertThat(a.getOutcome()).isEqualTo("error");
		assertThat(a.getError()).hasMessageContaining("No outcome was reported").hasMessageContaining("'a'");
		LockAcquisitionContext b = this.handler.started.get(1);
		assertThat(b.getOutcome()).isEqualTo("acquired");
		assertThat(b.getError()).isNull();
	}

	@Test
	void shouldKeepAtMostEightObservationsOpenPerThread() {
		for (int i = 0; i < 20; i++) {
			this.listener.onAcquiring(target("p" + i));
		}
		assertThat(this.listener.openOnCurrentThread()).isEqualTo(LockObservationListener.MAX_OPEN_PER_THREAD);
		assertThat(this.handler.stopped).hasSize(20 - LockObservationListener.MAX_OPEN_PER_THREAD)
			.allSatisfy((context) -> assertThat(context.getOutcome()).isEqualTo("error"));
		this.listener.onTimeout(target("p19"), Duration.ZERO);
		assertThat(this.listener.openOnCurrentThread()).isZero();
		assertThat(this.handler.stopped).hasSize(20);
		assertThat(this.handler.stopped.get(19).getLockPath()).isEqualTo("p19");
		assertThat(this.handler.stopped.get(19).getOutcome()).isEqualTo("timeout");
	}

	@Test
	void shouldStopNestedAcquiresWhenTheyEndInOrder() {
		this.listener.onAcquiring(target("outer"));
		this.listener.onAcquiring(target("inner"));
		this.listener.onAcquired(target("inner"), 0, Duration.ZERO);
		assertThat(this.listener.openOnCurrentThread()).isZero();
		this.listener.onAcquired(target("outer"), 0, Duration.ZERO);
		assertThat(this.handler.stopped).hasSize(2);
	}

	@Test
	void shouldRecordTheFailureOfAFailedAcquire() {
		LockAcquisitionException failure = new LockAcquisitionException("a", "ZooKeeper is down");
		this.listener.onAcquiring(target("a"));
		this.listener.onFailed(target("a"), Duration.ofMillis(3), failure);
		assertThat(this.handler.stopped).singleElement().satisfies((context) -> {
			assertThat(context.getError()).isSameAs(failure);
			assertThat(context.getLowCardinalityKeyValue("outcome").getValue()).isEqualTo("error");
		});
	}

	@Test
	void shouldIgnoreAnEndWithoutStartAndEventsOutsideAcquires() {
		this.listener.onAcquired(target("a"), 0, Duration.ZERO);
		this.listener.onReleased(target("a"), 0, Duration.ZERO, ReleaseResult.RELEASED);
		this.listener.onLost(target("a"), 0, Duration.ZERO);
		assertThat(this.handler.started).isEmpty();
	}

	@Test
	void shouldKeepNothingWithNoopRegistry() {
		LockObservationListener noop = new LockObservationListener(ObservationRegistry.NOOP);
		noop.onAcquiring(target("a"));
		assertThat(noop.openOnCurrentThread()).isZero();
	}

	@Test
	@Timeout(10)
	void shouldMatchEndsOnTheAcquiringThreadOnly() throws Exception {
		this.listener.onAcquiring(target("a"));
		Thread other = new Thread(() -> this.listener.onAcquired(target("a"), 0, Duration.ZERO));
		other.start();
		other.join();
		assertThat(this.handler.stopped).isEmpty();
		this.listener.onAcquired(target("a"), 0, Duration.ZERO);
		assertThat(this.listener.openOnCurrentThread()).isZero();
		assertThat(this.handler.stopped).hasSize(1);
	}

	private static LockTarget target(String lockPath) {
		return new LockTarget(lockPath, lockPath, LockMode.EXCLUSIVE);
	}

	private static final class RecordingHandler implements ObservationHandler<LockAcquisitionContext> {

		final List<LockAcquisitionContext> started = new CopyOnWriteArrayList<>();

		final List<LockAcquisitionContext> stopped = new CopyOnWriteArrayList<>();

		@Override
		public void onStart(LockAcquisitionContext context) {
			this.started.add(context);
		}

		@Override
		public void onStop(LockAcquisitionContext context) {
			this.stopped.add(context);
		}

		@Override
		public boolean supportsContext(Observation.Context context) {
			return context instanceof LockAcquisitionContext;
		}

	}

}
