package io.zklock.annotation.support;

import java.util.ArrayList;
import java.util.List;

import io.zklock.lock.LockHandle;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

/**
 * The locks of the {@code @DistributedLock} calls whose reactive pipelines run, in the Reactor
 * {@code Context}: written by zklock's interceptor into each annotated {@code Mono}'s or
 * {@code Flux}'s context, read by {@link io.zklock.annotation.ReactiveLockContext}, which is what
 * applications use. Loaded only where Reactor is on the class path. Thread-safe (stateless).
 */
public final class ReactiveLockContextHolder {

	/**
	 * The Reactor {@code Context} key of the locks: an unmodifiable {@code List<LockHandle>}, the
	 * outermost call's locks first.
	 */
	public static final String KEY = "io.zklock.annotation.ReactiveLockContext.locks";

	/** The Reactor {@code Context} key of the annotated method that runs without locks, zklock disabled. */
	public static final String UNLOCKED_KEY = "io.zklock.annotation.ReactiveLockContext.unlocked";

	private ReactiveLockContextHolder() {
	}

	/**
	 * Every lock in a Reactor context, innermost last.
	 * @param context the context
	 * @return the locks, empty if the context holds none
	 */
	@SuppressWarnings("unchecked")
	public static List<LockHandle> locksIn(ContextView context) {
		List<LockHandle> locks = context.getOrDefault(KEY, List.of());
		return (locks != null) ? locks : List.of();
	}

	/**
	 * {@code context} with {@code locks} added as the innermost.
	 * @param context the context
	 * @param locks the call's locks, in acquisition order
	 * @return the context with them
	 */
	public static Context with(Context context, List<LockHandle> locks) {
		if (locks.isEmpty()) {
			return context;
		}
		List<LockHandle> outer = locksIn(context);
		List<LockHandle> all = new ArrayList<>(outer.size() + locks.size());
		all.addAll(outer);
		all.addAll(locks);
		return context.put(KEY, List.copyOf(all));
	}

	/**
	 * {@code context} marked as that of an annotated method that runs without locks, zklock
	 * disabled.
	 * @param context the context
	 * @param method the method, for messages
	 * @return the marked context
	 */
	public static Context withUnlocked(Context context, String method) {
		return context.put(UNLOCKED_KEY, method);
	}

}
