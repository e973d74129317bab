package io.zklock.interceptor;

import java.util.concurrent.atomic.AtomicInteger;
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

import io.zklock.annotation.LockContext;
import io.zklock.annotation.OnLockLost;
import io.zklock.annotation.ReactiveLockContext;
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

	private static final int PENDING = 0;

	private static final int DELIVERED = 1;

	private static final int CANCELLED = 2;

	/** The grant reached the method: the body's subscription owns it. */
	private static final int TAKEN = 3;

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
	 * @param acquire takes the locks; returns {@code null} to skip the call (the publisher is
	 * then empty)
	 * @param body runs the method and returns its publisher
	 * @param onLockLost the policy for a lock lost while the publisher runs
	 * @param method the method, for messages
	 */
	static Object around(ReturnKind kind, Supplier<@Nullable AcquiredLocks> acquire, BodyCall body,
			OnLockLost onLockLost, String method) {
		boolean single = kind == ReturnKind.MONO;
		Flux<Object> locked = acquireOnSubscribe(acquire).flatMapMany((grant) -> {
			AcquiredLocks held = grant.take();
			return (held != null) ? (Subscriber<? super Object> subscriber) -> subscribeBody(subscriber, held, body,
					single, onLockLost, method) : Flux.empty();
		});
		return single ? Mono.fromDirect(locked) : locked;
	}

	/**
	 * Runs the method under {@code held} (on the thread that got the locks) and subscribes the
	 * caller to its publisher through a {@link BodySubscriber}.
	 */
	private static void subscribeBody(Subscriber<? super Object> subscriber, AcquiredLocks held, BodyCall body,
			boolean single, OnLockLost onLockLost, String method) {
		CoreSubscriber<? super Object> actual = Operators.toCoreSubscriber(subscriber);
		WorkStopper stopper = new WorkStopper();
		Flux<Object> publisher;
		held.watch().methodRunning();
		try {
			publisher = guard(withLocks(() -> body.call(stopper), held), held, onLockLost, method);
		}
		catch (RuntimeException | Error ex) {
			held.workDone();
			Operators.error(actual, ex);
			return;
		}
		finally {
			held.watch().methodReturned();
		}
		publisher.subscribe(new BodySubscriber(actual, held, single, stopper));
	}

	/**
	 * The method's publisher, with its locks in the subscriber context of everything in it
	 * ({@link ReactiveLockContext}).
	 */
	private static Flux<Object> withLocks(ThrowingCall body, AcquiredLocks held) {
		Flux<Object> publisher = Flux.from(publisher(body, held));
		return held.locks().isEmpty() ? publisher
				: publisher.contextWrite((context) -> ReactiveLockContext.with(context, held.locks()));
	}

	/**
	 * Takes the locks when subscribed, on the bounded-elastic scheduler (taking them blocks), and
	 * owns the race with a cancel: compare-and-sets decide whether the grant reaches the method
	 * ({@link Grant#take()}) or is released here, because the subscriber cancelled before it was
	 * offered, or because it was offered and never taken: a sink cancelled while it emits drops
	 * the value, through the dropped-value hook rather than the discard hook, so the discard hook
	 * cannot be relied on. A cancel also cuts the wait short. An acquire that fails after the
	 * cancel ends quietly.
	 */
	private static Mono<Grant> acquireOnSubscribe(Supplier<@Nullable AcquiredLocks> acquire) {
		return Mono.<Grant>create((sink) -> {
			AtomicInteger state = new AtomicInteger(PENDING);
			Disposable task = Schedulers.boundedElastic().schedule(() -> {
				try {
					AcquiredLocks held = acquire.get();
					if (held == null) {
						sink.success();
					}
					else if (state.compareAndSet(PENDING, DELIVERED)) {
						sink.success(new Grant(held, state));
						if (state.compareAndSet(DELIVERED, CANCELLED)) {
							// offered, not taken: the sink dropped it
							held.release();
						}
					}
					else {
						held.release();
					}
				}
				catch (RuntimeException | Error ex) {
					if (state.get() != CANCELLED) {
						sink.error(ex);
					}
				}
				finally {
					// an interrupt meant for this acquire must not reach the worker's next task
					Thread.interrupted();
				}
			});
			sink.onCancel(() -> {
				if (state.compareAndSet(PENDING, CANCELLED)) {
					task.dispose();
				}
			});
		});
	}

	/** Locks offered to the method, which takes them once unless the subscription was cancelled first. */
	private record Grant(AcquiredLocks held, AtomicInteger state) {

		/** The locks, now owned by the body's subscription; {@code null} if they were given up. */
		@Nullable AcquiredLocks take() {
			return this.state.compareAndSet(DELIVERED, TAKEN) ? this.held : null;
		}

	}

	private static Flux<Object> guard(Flux<Object> body, AcquiredLocks held, OnLockLost onLockLost, String method) {
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
	private static Publisher<Object> publisher(ThrowingCall body, AcquiredLocks held) {
		LockContext.push(held.locks());
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
			LockContext.pop(held.locks());
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
		 * @param stopper may be given a way to stop the subscription's work without unsubscribing
		 * (a suspend function's coroutine)
		 * @return the method's publisher
		 */
		@Nullable Object call(WorkStopper stopper) throws Throwable;

	}

}
