package io.zklock.annotation;

import java.util.List;
import java.util.Optional;

import io.zklock.annotation.support.ReactiveLockContextHolder;
import io.zklock.lock.LockHandle;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

/**
 * The locks of the {@link DistributedLock} methods whose Reactor pipeline is running: the
 * reactive counterpart of {@link LockContext}, read from the Reactor {@code Context}.
 *
 * <pre class="code">
 * &#064;DistributedLock(path = "inventory", key = "#sku")
 * public Mono&lt;Void&gt; reserve(String sku, int qty) {
 *     return stock.read(sku)
 *         .zipWith(ReactiveLockContext.currentToken())
 *         .flatMap((read) -&gt; stock.write(sku, read.getT1() - qty, read.getT2()));
 * }
 * </pre>
 *
 * A {@code Mono} or {@code Flux} method (and a Kotlin {@code suspend} function, whose body
 * Spring runs as a {@code Mono}) gets its locks written into the subscriber {@code Context}
 * of the publisher it returns, under {@link #KEY}, for each subscription. Everything in that
 * publisher sees them: operators after the body's first one, inner publishers of its
 * {@code flatMap}s, on whatever scheduler they run. Nested annotated calls stack, the
 * innermost last. Operators that the caller adds after the method's publisher do not see them
 * (that is outside the call). In a Kotlin coroutine, await them:
 * {@code ReactiveLockContext.currentToken().awaitSingle()}. With {@code zklock.enabled=false}
 * annotated methods run without locks: {@link #currentLock()} is empty, {@link #currentLocks()}
 * an empty list, and {@link #currentToken()} fails saying that zklock is disabled. Thread-safe.
 */
public final class ReactiveLockContext {

	/**
	 * The Reactor {@code Context} key of the locks: its value is an unmodifiable
	 * {@code List<LockHandle>}, the outermost call's locks first.
	 */
	public static final String KEY = ReactiveLockContextHolder.KEY;

	private ReactiveLockContext() {
	}

	/**
	 * The lock of the innermost {@link DistributedLock} call whose pipeline subscribes to the
	 * returned {@code Mono}.
	 * @return the lock, or an empty {@code Mono} outside an annotated reactive call
	 */
	public static Mono<LockHandle> currentLock() {
		return Mono.deferContextual((context) -> Mono.justOrEmpty(lockIn(context)));
	}

	/**
	 * Every lock of the {@link DistributedLock} calls whose pipelines subscribe to the
	 * returned {@code Mono}, innermost last; a method with several locks contributes them in
	 * the order it took them.
	 * @return the locks, an empty list outside an annotated reactive call
	 */
	public static Mono<List<LockHandle>> currentLocks() {
		return Mono.deferContextual((context) -> Mono.just(locksIn(context)));
	}

	/**
	 * The fencing token of {@link #currentLock()}.
	 * @return the token; the {@code Mono} fails with {@link IllegalStateException} outside an
	 * annotated reactive call, and inside one while zklock is disabled
	 * ({@code zklock.enabled=false}), saying so
	 */
	public static Mono<Long> currentToken() {
		return Mono.deferContextual((context) -> lockIn(context).map((lock) -> Mono.just(lock.fencingToken()))
			.orElseGet(() -> Mono.error(new IllegalStateException(context.hasKey(ReactiveLockContextHolder.UNLOCKED_KEY)
					? LockContext.disabled(context.get(ReactiveLockContextHolder.UNLOCKED_KEY), "ReactiveLockContext")
					: "No @DistributedLock call's lock is in this Reactor Context; ReactiveLockContext is only set "
							+ "inside the publisher of a Mono, Flux or suspend method guarded by @DistributedLock"))));
	}

	/**
	 * The innermost lock in a Reactor context, for code that has the context at hand
	 * ({@code Mono.deferContextual}, a Kotlin coroutine's {@code ReactorContext}).
	 * @param context the context
	 * @return the lock, or empty if the context holds none
	 */
	public static Optional<LockHandle> lockIn(ContextView context) {
		List<LockHandle> locks = locksIn(context);
		return locks.isEmpty() ? Optional.empty() : Optional.of(locks.get(locks.size() - 1));
	}

	/**
	 * Every lock in a Reactor context, innermost last.
	 * @param context the context
	 * @return the locks, empty if the context holds none
	 */
	public static List<LockHandle> locksIn(ContextView context) {
		return ReactiveLockContextHolder.locksIn(context);
	}

}
