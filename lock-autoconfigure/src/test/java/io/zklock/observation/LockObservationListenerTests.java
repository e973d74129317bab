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
import io.zklock.lock.LockEvent;
import io.zklock.lock.LockMode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LockObservationListener}'s per-thread bookkeeping, with event sequences a
 * real coordinator produces only on an {@link Error}; real acquires are tested in
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
		this.listener.onEvent(event(LockEvent.Type.ACQUIRING, "a"));
		// no end for "a": an Error was thrown inside its acquire
		this.listener.onEvent(event(LockEvent.Type.ACQUIRING, "b"));
		assertThat(this.listener.openOnCurrentThread()).isEqualTo(2);
		this.listener.onEvent(event(LockEvent.Type.ACQUIRED, "b"));
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
			this.listener.onEvent(event(LockEvent.Type.ACQUIRING, "p" + i));
		}
		assertThat(this.listener.openOnCurrentThread()).isEqualTo(LockObservationListener.MAX_OPEN_PER_THREAD);
		assertThat(this.handler.stopped).hasSize(20 - LockObservationListener.MAX_OPEN_PER_THREAD)
			.allSatisfy((context) -> assertThat(context.getOutcome()).isEqualTo("error"));
		this.listener.onEvent(event(LockEvent.Type.TIMED_OUT, "p19"));
		assertThat(this.listener.openOnCurrentThread()).isZero();
		assertThat(this.handler.stopped).hasSize(20);
		assertThat(this.handler.stopped.get(19).getLockPath()).isEqualTo("p19");
		assertThat(this.handler.stopped.get(19).getOutcome()).isEqualTo("timeout");
	}

	@Test
	void shouldStopNestedAcquiresWhenTheyEndInOrder() {
		this.listener.onEvent(event(LockEvent.Type.ACQUIRING, "outer"));
		this.listener.onEvent(event(LockEvent.Type.ACQUIRING, "inner"));
		this.listener.onEvent(event(LockEvent.Type.ACQUIRED, "inner"));
		assertThat(this.listener.openOnCurrentThread()).isZero();
		this.listener.onEvent(event(LockEvent.Type.ACQUIRED, "outer"));
		assertThat(this.handler.stopped).hasSize(2);
	}

	@Test
	void shouldRecordTheFailureOfAFailedAcquire() {
		LockAcquisitionException failure = new LockAcquisitionException("a", "ZooKeeper is down");
		this.listener.onEvent(event(LockEvent.Type.ACQUIRING, "a"));
		this.listener.onEvent(new LockEvent(LockEvent.Type.FAILED, "a", "a", LockMode.EXCLUSIVE, 0,
				Duration.ofMillis(3), null, failure));
		assertThat(this.handler.stopped).singleElement().satisfies((context) -> {
			assertThat(context.getError()).isSameAs(failure);
			assertThat(context.getLowCardinalityKeyValue("outcome").getValue()).isEqualTo("error");
		});
	}

	@Test
	void shouldIgnoreAnEndWithoutStartAndEventsOutsideAcquires() {
		this.listener.onEvent(event(LockEvent.Type.ACQUIRED, "a"));
		this.listener.onEvent(event(LockEvent.Type.RELEASED, "a"));
		this.listener.onEvent(event(LockEvent.Type.SKIPPED, "a"));
		this.listener.onEvent(event(LockEvent.Type.LOST, "a"));
		assertThat(this.handler.started).isEmpty();
	}

	@Test
	void shouldKeepNothingWithNoopRegistry() {
		LockObservationListener noop = new LockObservationListener(ObservationRegistry.NOOP);
		noop.onEvent(event(LockEvent.Type.ACQUIRING, "a"));
		assertThat(noop.openOnCurrentThread()).isZero();
	}

	@Test
	@Timeout(10)
	void shouldMatchEndsOnTheAcquiringThreadOnly() throws Exception {
		this.listener.onEvent(event(LockEvent.Type.ACQUIRING, "a"));
		Thread other = new Thread(() -> this.listener.onEvent(event(LockEvent.Type.ACQUIRED, "a")));
		other.start();
		other.join();
		assertThat(this.handler.stopped).isEmpty();
		this.listener.onEvent(event(LockEvent.Type.ACQUIRED, "a"));
		assertThat(this.listener.openOnCurrentThread()).isZero();
		assertThat(this.handler.stopped).hasSize(1);
	}

	private static LockEvent event(LockEvent.Type type, String lockPath) {
		return new LockEvent(type, lockPath, lockPath, LockMode.EXCLUSIVE, 0, Duration.ZERO, null, null);
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
