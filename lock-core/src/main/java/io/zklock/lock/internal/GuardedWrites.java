package io.zklock.lock.internal;

import io.zklock.lock.LockHandle;
import org.jspecify.annotations.Nullable;

/**
 * What a guarded write ({@code io.zklock.lock.GuardedTransaction}) asks of the engine: that the
 * lock node of the hold it writes under passes to no other holder while the write is under way.
 * With local handoff a node passes from one holder of this process to the next unchanged, so a
 * check of the node alone cannot tell them apart; a release of a pinned hold hands the node on only
 * once its guarded writes have returned (docs/lock-protocol.md, "Guarded writes with local
 * handoff"). Internal: not part of zklock's API. Thread-safe.
 */
public final class GuardedWrites {

	private static final Runnable NOTHING = () -> {
	};

	private GuardedWrites() {
	}

	/**
	 * Pins the hold behind {@code handle} until the returned action runs.
	 * @param handle a handle of zklock's engine; any other handle is not pinned (its node is never
	 * handed on by zklock)
	 * @return what ends the pin (run it exactly once, in a {@code finally} block), or {@code null}
	 * if the handle was released
	 */
	public static @Nullable Runnable pin(LockHandle handle) {
		if (handle instanceof HoldHandle hold) {
			return hold.pin();
		}
		return NOTHING;
	}

}
