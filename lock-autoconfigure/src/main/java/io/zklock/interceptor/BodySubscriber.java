package io.zklock.interceptor;

import java.util.concurrent.CancellationException;
import java.util.concurrent.RejectedExecutionException;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Operators;
import reactor.core.scheduler.Schedulers;
import reactor.util.context.Context;

import io.zklock.annotation.HoldExceededException;
import io.zklock.annotation.OnHoldExceeded;

/**
 * One subscription of a {@code Mono} or {@code Flux} method under its locks, between the
 * method's publisher (upstream) and the caller's subscriber (downstream). The locks go when the
 * method's publisher ends by itself (complete or error), on the bounded-elastic scheduler (a
 * release waits for ZooKeeper), before the caller sees the end. What a caller's cancel does
 * depends on what can tell zklock that the work has stopped, since Reactor has no signal for it
 * (a cancelled publisher owes its subscriber nothing more, Reactive Streams rule 3.12, and a
 * cancel reaches neither a future under {@code Mono.fromFuture} nor a callable that is already
 * running on a worker):
 * <ul>
 * <li>a {@code Mono} is one piece of work: the caller's cancel detaches the caller, and the
 * method's publisher runs on, uncancelled, to its own end, which releases the locks; the value it
 * then produces is discarded (Reactor's discard hook sees it), and an error goes to Reactor's
 * dropped-error hook;</li>
 * <li>a Kotlin {@code suspend} function's coroutine is cancelled through its {@code Job}
 * ({@link LockedCall#stopWork()}), which leaves its publisher subscribed: the locks go when the coroutine
 * has completed, after its {@code finally} blocks and children;</li>
 * <li>a {@code Flux} may never end by itself ({@code Flux.interval}, a consumer), so the caller's
 * cancel ({@code take}, {@code next}, a closed connection) cancels it; its end cannot be seen
 * after that, so its locks are kept {@code zklock.hold-after-cancel} more
 * ({@link LockedCall#cancelWork(String)}).</li>
 * </ul>
 * When zklock cancels the call itself ({@link OnHoldExceeded#CANCEL}), the caller (if still
 * subscribed) gets {@link HoldExceededException}; a coroutine is cancelled through its
 * {@code Job} and its locks go when it has ended, a {@code Mono} is detached as at a caller's
 * cancel and its locks go at its own end, and a {@code Flux} is cancelled and keeps its locks
 * {@code zklock.hold-after-cancel} more. Signals to the caller are serialized. The state of the
 * subscription is its call's ({@link LockedCall}: {@code RUNNING}, {@code DETACHED},
 * {@code CANCELLED}, {@code DONE}); this class holds none of its own.
 */
final class BodySubscriber implements CoreSubscriber<Object>, Subscription {

	private final CoreSubscriber<? super Object> actual;

	private final LockedCall held;

	private final boolean single;

	private volatile @Nullable Subscription upstream;

	/**
	 * Creates the subscriber.
	 * @param actual the caller's subscriber
	 * @param held the call, {@code RUNNING}; its locks are released when the work ends
	 * @param single whether the method returns a {@code Mono} (or is a {@code suspend} function)
	 */
	BodySubscriber(CoreSubscriber<? super Object> actual, LockedCall held, boolean single) {
		this.actual = Operators.serialize(actual);
		this.held = held;
		this.single = single;
	}

	@Override
	public Context currentContext() {
		return this.actual.currentContext();
	}

	@Override
	public void onSubscribe(Subscription subscription) {
		if (Operators.validate(this.upstream, subscription)) {
			this.upstream = subscription;
			this.held.cancelWith(this::cancelByZklock);
			this.actual.onSubscribe(this);
		}
	}

	@Override
	public void onNext(Object value) {
		if (this.held.state() == LockedCall.RUNNING) {
			this.actual.onNext(value);
		}
		else {
			Operators.onDiscard(value, currentContext());
		}
	}

	@Override
	public void onError(Throwable error) {
		int was = this.held.endWork();
		if (was == LockedCall.RUNNING) {
			releaseThen(() -> this.actual.onError(error));
		}
		else if (was == LockedCall.DETACHED) {
			// the end of work that runs on for nobody; a stopped coroutine ends with a cancellation
			releaseThen(() -> {
				if (!(error instanceof CancellationException)) {
					Operators.onErrorDropped(error, currentContext());
				}
			});
		}
	}

	@Override
	public void onComplete() {
		int was = this.held.endWork();
		if (was == LockedCall.RUNNING) {
			releaseThen(this.actual::onComplete);
		}
		else if (was == LockedCall.DETACHED) {
			releaseThen(() -> {
			});
		}
	}

	@Override
	public void request(long n) {
		Subscription subscription = this.upstream;
		if (subscription != null && this.held.state() == LockedCall.RUNNING) {
			subscription.request(n);
		}
	}

	@Override
	public void cancel() {
		Subscription subscription = this.upstream;
		if (subscription == null) {
			return;
		}
		if (this.single) {
			if (this.held.detach()) {
				// the work runs on to its end (a coroutine is cancelled first), which tells that it has ended
				subscription.request(Long.MAX_VALUE);
				this.held.stopWork();
			}
		}
		else if (this.held.cancelWork("its subscriber cancelled it") == LockedCall.RUNNING) {
			subscription.cancel();
		}
	}

	/**
	 * zklock cancels the call: a coroutine through its {@code Job}, whose end is still seen; a
	 * {@code Mono} detached, whose end is still seen; a {@code Flux} through its subscription,
	 * whose end is not seen after this.
	 */
	private @Nullable String cancelByZklock(HoldExceededException error) {
		if (this.single && this.held.canStopWork()) {
			if (this.held.detach()) {
				this.actual.onError(error);
			}
			this.held.stopWork();
			return "zklock cancelled the call's coroutine; the lock goes when it has ended";
		}
		if (this.single) {
			// as at a caller's cancel: a cancel would reach neither a future under the Mono nor a
			// running callable, and would hide its end
			if (this.held.detach()) {
				this.actual.onError(error);
				Subscription subscription = this.upstream;
				if (subscription != null) {
					subscription.request(Long.MAX_VALUE);
				}
			}
			return "zklock failed the caller's Mono with HoldExceededException; the Mono runs on to its own end, "
					+ "which releases the lock";
		}
		int was = this.held.cancelWork("zklock cancelled it, since it passed its holdAtMost");
		if (was != LockedCall.RUNNING && was != LockedCall.DETACHED) {
			return null;
		}
		Subscription subscription = this.upstream;
		if (subscription != null) {
			subscription.cancel();
		}
		if (was == LockedCall.RUNNING) {
			this.actual.onError(error);
		}
		return null;
	}

	/** Releases on the bounded-elastic scheduler (a release waits for ZooKeeper), then signals. */
	private void releaseThen(Runnable signal) {
		Runnable task = () -> {
			this.held.releaseAsDue();
			signal.run();
		};
		try {
			Schedulers.boundedElastic().schedule(task);
		}
		catch (RejectedExecutionException ex) {
			task.run();
		}
	}

}
