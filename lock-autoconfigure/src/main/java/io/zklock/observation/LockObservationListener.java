package io.zklock.observation;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Supplier;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import io.zklock.lock.event.LockListener;
import io.zklock.lock.event.LockTarget;

/**
 * Wraps each lock acquire in a Micrometer {@link Observation} (by default
 * {@value DefaultLockAcquisitionObservationConvention#NAME}), so that traces show lock
 * waits: started on {@link #onAcquiring}, stopped on {@link #onAcquired}, {@link #onTimeout} or
 * {@link #onFailed} (with the failure as the observation's error). The
 * observation's parent is the observation current on the acquiring thread, such as the
 * HTTP request's.
 *
 * <p>
 * The engine reports an acquire's outcome on the acquiring thread, so open observations
 * are kept in a per-thread stack. The end event stops the open observation of the same lock
 * path and mode; any other observation still open on the thread had no end reported (an
 * {@link Error} thrown inside its acquire) and is stopped then too, with an error, so none
 * stays open past the thread's next completed acquire. At most
 * {@value #MAX_OPEN_PER_THREAD} are kept open per thread; the oldest is stopped the same way
 * when a further one starts.
 *
 * <p>
 * Thread-safe.
 */
public class LockObservationListener implements LockListener {

	/** How many observations may be open on one thread before the oldest is stopped. */
	static final int MAX_OPEN_PER_THREAD = 8;

	private static final LockAcquisitionObservationConvention DEFAULT_CONVENTION = new DefaultLockAcquisitionObservationConvention();

	private final Supplier<? extends @Nullable ObservationRegistry> registry;

	private final @Nullable LockAcquisitionObservationConvention convention;

	private final ThreadLocal<Deque<OpenAcquisition>> open = new ThreadLocal<>();

	/**
	 * Creates a listener with the default convention.
	 * @param registry the registry
	 */
	public LockObservationListener(ObservationRegistry registry) {
		this(() -> registry, null);
		if (registry == null) {
			throw new IllegalArgumentException("'registry' must not be null");
		}
	}

	/**
	 * Creates a listener that looks its registry up at each acquire, so that the registry
	 * may be created after the listener.
	 * @param registry supplies the registry, or {@code null} while there is none (the
	 * acquire is then not observed)
	 * @param convention the convention to use instead of the default, or {@code null}
	 */
	public LockObservationListener(Supplier<? extends @Nullable ObservationRegistry> registry,
			@Nullable LockAcquisitionObservationConvention convention) {
		if (registry == null) {
			throw new IllegalArgumentException("'registry' supplier must not be null");
		}
		this.registry = registry;
		this.convention = convention;
	}

	@Override
	public void onAcquiring(LockTarget lock) {
		start(lock);
	}

	@Override
	public void onAcquired(LockTarget lock, long fencingToken, Duration waited) {
		stop(lock, LockAcquisitionContext.ACQUIRED, fencingToken, null);
	}

	@Override
	public void onTimeout(LockTarget lock, Duration waited) {
		stop(lock, LockAcquisitionContext.TIMEOUT, 0, null);
	}

	@Override
	public void onFailed(LockTarget lock, Duration waited, Throwable error) {
		stop(lock, LockAcquisitionContext.ERROR, 0, error);
	}

	/**
	 * How many observations are open on the current thread; for tests.
	 * @return the number of open observations
	 */
	int openOnCurrentThread() {
		Deque<OpenAcquisition> stack = this.open.get();
		return (stack != null) ? stack.size() : 0;
	}

	private void start(LockTarget lock) {
		ObservationRegistry registry = this.registry.get();
		if (registry == null || registry.isNoop()) {
			return;
		}
		LockAcquisitionContext context = new LockAcquisitionContext(lock.lockPath(), lock.lockName(), lock.mode());
		Observation observation = Observation
			.createNotStarted(this.convention, DEFAULT_CONVENTION, () -> context, registry)
			.start();
		Deque<OpenAcquisition> stack = this.open.get();
		if (stack == null) {
			stack = new ArrayDeque<>();
			this.open.set(stack);
		}
		while (stack.size() >= MAX_OPEN_PER_THREAD) {
			stack.removeLast().abandon();
		}
		stack.push(new OpenAcquisition(context, observation));
	}

	private void stop(LockTarget lock, String outcome, long fencingToken, @Nullable Throwable error) {
		Deque<OpenAcquisition> stack = this.open.get();
		if (stack == null) {
			return;
		}
		OpenAcquisition ended = null;
		for (OpenAcquisition candidate : stack) {
			if (candidate.isOf(lock)) {
				ended = candidate;
				break;
			}
		}
		if (ended == null) {
			return;
		}
		this.open.remove();
		for (OpenAcquisition other : stack) {
			if (other != ended) {
				other.abandon();
			}
		}
		ended.context().setOutcome(outcome);
		ended.context().setFencingToken(fencingToken);
		if (error != null) {
			ended.observation().error(error);
		}
		ended.observation().stop();
	}

	private record OpenAcquisition(LockAcquisitionContext context, Observation observation) {

		boolean isOf(LockTarget lock) {
			return this.context.getLockPath().equals(lock.lockPath()) && this.context.getMode() == lock.mode();
		}

		void abandon() {
			this.context.setOutcome(LockAcquisitionContext.ERROR);
			this.observation.error(new IllegalStateException("No outcome was reported for the " + this.context.getMode()
					+ " acquire of lock path '" + this.context.getLockPath()
					+ "' on this thread; an Error was probably thrown inside it"));
			this.observation.stop();
		}

	}

}
