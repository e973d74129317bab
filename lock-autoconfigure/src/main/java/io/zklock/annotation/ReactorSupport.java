package io.zklock.annotation;

import java.util.concurrent.Callable;

import org.reactivestreams.Publisher;
import reactor.core.Exceptions;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Locks around Reactor publishers: the locks are taken when the publisher is subscribed
 * (on the bounded-elastic scheduler, since taking them blocks), the method body runs under
 * them, and they are released on complete, error or cancel. Loaded only when Reactor is on
 * the classpath.
 */
final class ReactorSupport {

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
	 */
	static Object around(ReturnKind kind, Callable<AcquiredLocks> acquire, ThrowingCall body) {
		Mono<AcquiredLocks> locks = Mono.fromCallable(acquire).subscribeOn(Schedulers.boundedElastic());
		Flux<Object> guarded = Flux.usingWhen(locks, (held) -> Flux.from(publisher(body)), ReactorSupport::release,
				(held, error) -> release(held), ReactorSupport::release);
		return (kind == ReturnKind.MONO) ? guarded.next() : guarded;
	}

	@SuppressWarnings("unchecked")
	private static Publisher<Object> publisher(ThrowingCall body) {
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
	}

	/** The method call, which may throw anything. */
	@FunctionalInterface
	interface ThrowingCall {

		Object call() throws Throwable;

	}

	private static Mono<Void> release(AcquiredLocks held) {
		return Mono.<Void>fromRunnable(held::release).subscribeOn(Schedulers.boundedElastic());
	}

}
