package io.zklock.interceptor;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The Reactor part of {@link LeaderOnlyInterceptor}: the check runs when the publisher is
 * subscribed, each subscription on its own, and a skipped subscription completes empty. Loaded only
 * for methods that return a {@code Mono} or {@code Flux}.
 */
final class LeaderOnlyReactive {

	private LeaderOnlyReactive() {
	}

	/**
	 * The publisher to return.
	 * @param kind {@link ReturnKind#MONO} or {@link ReturnKind#FLUX}
	 * @param body checks the term and runs the method, returning its publisher, or {@code null} if
	 * the subscription is skipped
	 */
	static Object defer(ReturnKind kind, Body body) {
		if (kind == ReturnKind.MONO) {
			return Mono.defer(() -> {
				Publisher<?> publisher = run(body);
				return (publisher != null) ? Mono.from(publisher) : Mono.empty();
			});
		}
		return Flux.defer(() -> {
			Publisher<?> publisher = run(body);
			return (publisher != null) ? publisher : Flux.empty();
		});
	}

	private static @Nullable Publisher<?> run(Body body) {
		try {
			return (Publisher<?>) body.run();
		}
		catch (RuntimeException | Error ex) {
			throw ex;
		}
		catch (Throwable ex) {
			return Mono.error(ex);
		}
	}

	/** Runs the method of one subscription. */
	@FunctionalInterface
	interface Body {

		/** Returns the method's publisher, or {@code null} to skip. */
		@Nullable Object run() throws Throwable;

	}

}
