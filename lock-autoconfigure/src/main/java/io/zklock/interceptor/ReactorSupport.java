package io.zklock.interceptor;

import java.util.function.Predicate;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import reactor.core.CoreSubscriber;
import reactor.core.Disposable;
import reactor.core.Exceptions;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;
import reactor.core.scheduler.Schedulers;

import io.zklock.annotation.OnLockLost;
import io.zklock.annotation.support.LockContextHolder;
import io.zklock.annotation.support.ReactiveLockContextHolder;
import io.zklock.lock.LockLostException;
import io.zklock.lock.LockState;

/**
 * Locks around Reactor publishers: one call-owned hold per subscription, taken when the
 * publisher is subscribed (on the bounded-elastic scheduler, since taking it blocks), the
 * method body run under it with its locks in its subscriber context
 * ({@link ReactiveLockContext}), and released when its work ends: on complete or error, and on
 * a cancel as {@link BodySubscriber} explains (a {@code Mono} runs on to its end, a
 * {@code Flux} keeps its locks {@code zklock.hold-after-cancel} after it); a grant that
 * arrives after the subscriber cancelled is released at once.
 * {@code zklock.on-lock-lost} applies to the signals: {@code fail} turns an element or the
 * completion that comes while a lock is not held into a {@link LockLostException} error;
 * {@code interrupt} signals that error, and cancels the method's publisher, as soon as a lock
 * is lost. Loaded only when Reactor is on the classpath.
 */
final class ReactorSupport {

	private static final String DISCARDED = "the publisher failed instead (zklock.on-lock-lost=fail)";

	private static final String INTERRUPTED = "its publisher was cancelled (zklock.on-lock-lost=interrupt)";

	private ReactorSupport() {
	}

	static boolean isMono(Class<?> type) {
		return Mono.class.isAssignableFrom(type);
	}

	static boolean isFlux(Class<?> type) {
		return Flux.class.isAssignableFrom(type);
	}

	static Object empty(ReturnKind kind) {
		return (kind == ReturnKind.MONO) ? Mono.empty() : Flux.empty();
	}

	/**
	 * The publisher to return for a reactive method.
	 * @param kind {@link ReturnKind#MONO} or {@link ReturnKind#FLUX}
	 * @param newCall makes the call of one subscription, {@code ACQUIRING}
	 * @param acquire takes its locks; returns {@code false} to skip the call (the publisher is
	 * then empty)
	 * @param body runs the method and returns its publisher
	 * @param onLockLost the policy for a lock lost while the publisher runs
	 * @param method the method, for messages
	 */
	static Object around(ReturnKind kind, Supplier<LockedCall> newCall, Predicate<LockedCall> acquire, BodyCall body,
			OnLockLost onLockLost, String method) {
		boolean single = kind == ReturnKind.MONO;
		Flux<Object> locked = acquireOnSubscribe(newCall, acquire)
			.flatMapMany((held) -> held.take() ? (Subscriber<? super Object> subscriber) -> subscribeBody(subscriber,
					held, body, single, onLockLost, method) : Flux.empty());
		return single ? Mono.fromDirect(locked) : locked;
	}

	/**
	 * Runs the method under {@code held} (on the thread that got the locks) and subscribes the
	 * caller to its publisher through a {@link BodySubscriber}.
	 */
	private static void subscribeBody(Subscriber<? super Object> subscriber, LockedCall held, BodyCall body,
			boolean single, OnLockLost onLockLost, String method) {
		CoreSubscriber<? super Object> actual = Operators.toCoreSubscriber(subscriber);
		Flux<Object> publisher;
		held.methodRunning();
		try {
			publisher = guard(withLocks(() -> body.call(held), held), held, onLockLost, method);
		}
		catch (RuntimeException | Error ex) {
			held.workDone();
			Operators.error(actual, ex);
			return;
		}
		finally {
			held.methodReturned();
		}
		publisher.subscribe(new BodySubscriber(actual, held, single));
	}

	/**
	 * The method's publisher, with its locks in the subscriber context of everything in it
	 * ({@link ReactiveLockContext}).
	 */
	private static Flux<Object> withLocks(ThrowingCall body, LockedCall held) {
		Flux<Object> publisher = Flux.from(publisher(body, held));
		return held.locks().isEmpty() ? publisher
				: publisher.contextWrite((context) -> ReactiveLockContextHolder.with(context, held.locks()));
	}

	/**
	 * Takes the locks when subscribed, on the bounded-elastic scheduler (taking them blocks), and
	 * owns the race with a cancel through the call's states ({@link LockedCall}): the grant is
	 * offered ({@code OFFERED}) and reaches the method only if the body takes it
	 * ({@code RUNNING}); a cancel before that abandons the call, which releases what it holds or
	 * will be granted, as does a grant offered and never taken: a sink cancelled while it emits
	 * drops the value, through the dropped-value hook rather than the discard hook, so the
	 * discard hook cannot be relied on. A cancel also cuts the wait short. An acquire that fails
	 * after the cancel ends quietly.
	 */
	private static Mono<LockedCall> acquireOnSubscribe(Supplier<LockedCall> newCall, Predicate<LockedCall> acquire) {
		return Mono.<LockedCall>create((sink) -> {
			LockedCall call = newCall.get();
			Disposable task = Schedulers.boundedElastic().schedule(() -> {
				try {
					if (!acquire.test(call)) {
						sink.success();
					}
					else if (call.offer()) {
						sink.success(call);
						// offered, not taken: the sink dropped it
						call.abandon();
					}
				}
				catch (RuntimeException | Error ex) {
					if (call.state() != LockedCall.ABANDONED) {
						sink.error(ex);
					}
				}
				finally {
					// an interrupt meant for this acquire must not reach the worker's next task
					Thread.interrupted();
				}
			});
			sink.onCancel(() -> {
				if (call.abandon() == LockedCall.ACQUIRING) {
					task.dispose();
				}
			});
		});
	}

	private static Flux<Object> guard(Flux<Object> body, LockedCall held, OnLockLost onLockLost, String method) {
		return switch (onLockLost) {
			case FAIL -> body.handle((value, sink) -> {
				LockLostException lost = held.lostException("emitted an element", DISCARDED);
				if (lost != null) {
					sink.error(lost);
				}
				else {
					sink.next(value);
				}
			}).concatWith(Mono.defer(() -> {
				LockLostException lost = held.lostException("completed", DISCARDED);
				return (lost != null) ? Mono.error(lost) : Mono.empty();
			}));
			case INTERRUPT -> body.takeUntilOther(Mono.create((sink) -> {
				Runnable unregister = held.onLoss(() -> {
					LockLostException lost = held.lostException("was running", INTERRUPTED);
					sink.error((lost != null) ? lost : new LockLostException("", 0, LockState.IN_DOUBT,
							"A lock of " + method + " was put in doubt while it ran; " + INTERRUPTED));
				});
				sink.onDispose(unregister::run);
			}));
			case IGNORE -> body;
		};
	}

	@SuppressWarnings("unchecked")
	private static Publisher<Object> publisher(ThrowingCall body, LockedCall held) {
		LockContextHolder.push(held.locks());
		try {
			Object result = body.call();
			return (result != null) ? (Publisher<Object>) result : Mono.empty();
		}
		catch (RuntimeException | Error ex) {
			throw ex;
		}
		catch (Throwable ex) {
			throw Exceptions.propagate(ex);
		}
		finally {
			LockContextHolder.pop(held.locks());
		}
	}

	/** The method call, which may throw anything. */
	@FunctionalInterface
	private interface ThrowingCall {

		@Nullable Object call() throws Throwable;

	}

	/** The method call of one subscription, which may throw anything. */
	@FunctionalInterface
	interface BodyCall {

		/**
		 * Runs the method.
		 * @param call the subscription's call, which may be given a way to stop its work without
		 * unsubscribing (a suspend function's coroutine, {@link LockedCall#stopWith(Runnable)})
		 * @return the method's publisher
		 */
		@Nullable Object call(LockedCall call) throws Throwable;

	}

}
