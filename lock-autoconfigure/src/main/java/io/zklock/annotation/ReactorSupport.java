package io.zklock.annotation;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.Disposable;
import reactor.core.Exceptions;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import io.zklock.lock.LockLostException;
import io.zklock.lock.LockState;

/**
 * Locks around Reactor publishers: one call-owned hold per subscription, taken when the
 * publisher is subscribed (on the bounded-elastic scheduler, since taking it blocks), the
 * method body run under it with its locks in its subscriber context
 * ({@link ReactiveLockContext}), and released on complete, error or cancel; a grant that
 * arrives after the subscriber cancelled is released when Reactor discards it.
 * {@code zklock.on-lock-lost} applies to the signals: {@code fail} turns an element or the
 * completion that comes while a lock is not held into a {@link LockLostException} error;
 * {@code interrupt} signals that error, and cancels the method's publisher, as soon as a lock
 * is lost. Loaded only when Reactor is on the classpath.
 */
final class ReactorSupport {

	private static final int PENDING = 0;

	private static final int DELIVERED = 1;

	private static final int CANCELLED = 2;

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
	static Object around(ReturnKind kind, Supplier<@Nullable AcquiredLocks> acquire, ThrowingCall body,
			OnLockLost onLockLost, String method) {
		Mono<AcquiredLocks> locks = acquireOnSubscribe(acquire);
		if (kind == ReturnKind.MONO) {
			return Mono.usingWhen(locks, (held) -> guard(withLocks(body, held), held, onLockLost, method).next(),
					ReactorSupport::release, (held, error) -> release(held), ReactorSupport::release);
		}
		return Flux.usingWhen(locks, (held) -> guard(withLocks(body, held), held, onLockLost, method),
				ReactorSupport::release, (held, error) -> release(held), ReactorSupport::release);
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
	 * owns the race with a cancel: one compare-and-set decides whether the grant is handed on
	 * (the usingWhen then releases it on complete, error or cancel) or released here because the
	 * subscriber cancelled first; a cancel also cuts the wait short. An acquire that fails after
	 * the cancel ends quietly. Reactor's discard hook releases a grant dropped downstream all the
	 * same.
	 */
	private static Mono<AcquiredLocks> acquireOnSubscribe(Supplier<@Nullable AcquiredLocks> acquire) {
		return Mono.<AcquiredLocks>create((sink) -> {
			AtomicInteger state = new AtomicInteger(PENDING);
			Disposable task = Schedulers.boundedElastic().schedule(() -> {
				try {
					AcquiredLocks held = acquire.get();
					if (held == null) {
						sink.success();
					}
					else if (state.compareAndSet(PENDING, DELIVERED)) {
						sink.success(held);
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
		}).doOnDiscard(AcquiredLocks.class, AcquiredLocks::release);
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
	interface ThrowingCall {

		@Nullable Object call() throws Throwable;

	}

	/** The work of a subscription ended (complete, error or cancel): its locks go, when due. */
	private static Mono<Void> release(AcquiredLocks held) {
		return Mono.<Void>fromRunnable(held::workDone).subscribeOn(Schedulers.boundedElastic());
	}

}
