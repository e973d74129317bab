package io.zklock.interceptor;

import java.util.concurrent.CancellationException;

import kotlin.coroutines.AbstractCoroutineContextElement;
import kotlin.coroutines.Continuation;
import kotlin.coroutines.CoroutineContext;
import kotlinx.coroutines.Job;
import kotlinx.coroutines.ThreadContextElement;
import org.jspecify.annotations.Nullable;

import io.zklock.annotation.DistributedLock;

import org.springframework.aop.ProxyMethodInvocation;

/**
 * Reaches the coroutine that Spring starts for a Kotlin {@code suspend} function's call, so
 * that a caller's cancel can cancel it and still see it end. Spring's AOP runs the function in
 * a coroutine of its own ({@code mono(context) { … }}) whose context is the one of the
 * {@code Continuation} argument; a {@code Mono} cancelled through Reactor disposes that
 * coroutine and signals nothing when it has completed, whereas a coroutine cancelled through its
 * {@code Job} completes its publisher with a {@code CancellationException} once it has really
 * ended. So the call's {@code Continuation} argument is replaced by one whose context also holds
 * a {@link ThreadContextElement} that reads the coroutine's {@code Job} when it first runs and
 * hands its cancellation to a {@link LockedCall#stopWith(Runnable)}. Loaded only for suspend functions, with
 * kotlinx-coroutines on the classpath.
 */
final class CoroutineJobs {

	private CoroutineJobs() {
	}

	/**
	 * Makes {@code stopper} able to cancel the coroutine that {@code invocation} will run.
	 * @param invocation a call of a suspend function, not yet proceeded
	 * @param stopper told how to cancel the coroutine once it runs
	 */
	static void reachWith(ProxyMethodInvocation invocation, LockedCall stopper) {
		Object[] arguments = invocation.getArguments().clone();
		int last = arguments.length - 1;
		if (last >= 0 && arguments[last] instanceof Continuation<?> continuation) {
			arguments[last] = new ProbedContinuation(continuation, new JobProbe(stopper));
			invocation.setArguments(arguments);
		}
	}

	/** Learns the {@code Job} of the first coroutine that runs with it: the call's own. */
	private static final class JobProbe extends AbstractCoroutineContextElement
			implements ThreadContextElement<@Nullable Object> {

		private static final CoroutineContext.Key<JobProbe> KEY = new CoroutineContext.Key<>() {
		};

		private final LockedCall stopper;

		private volatile boolean known;

		JobProbe(LockedCall stopper) {
			super(KEY);
			this.stopper = stopper;
		}

		@Override
		public @Nullable Object updateThreadContext(CoroutineContext context) {
			if (!this.known) {
				this.known = true;
				Job job = context.get(Job.Key);
				if (job != null) {
					this.stopper.stopWith(() -> job.cancel(new CancellationException(
							"zklock: the caller of this @DistributedLock suspend function was cancelled")));
				}
			}
			return null;
		}

		@Override
		public void restoreThreadContext(CoroutineContext context, @Nullable Object oldState) {
		}

	}

	/** The caller's continuation, with the probe in its context; Spring reads only the context. */
	private record ProbedContinuation(Continuation<?> caller, JobProbe probe) implements Continuation<Object> {

		@Override
		public CoroutineContext getContext() {
			return this.caller.getContext().plus(this.probe);
		}

		@Override
		@SuppressWarnings("unchecked")
		public void resumeWith(Object result) {
			((Continuation<Object>) this.caller).resumeWith(result);
		}

	}

}
