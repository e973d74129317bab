package io.zklock.interceptor;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.HoldExceededException;
import io.zklock.internal.Durations;
import io.zklock.lock.LockHandle;
import io.zklock.lock.PermitLease;
import io.zklock.lock.event.LockTarget;

/**
 * The WARNs of annotated calls' holds, on this class's logger, and their words: a hold that
 * passed {@link DistributedLock#holdAtMost()} (kept; the engine, which timed it, then tells the
 * {@link io.zklock.lock.event.LockListener}s of each lock), and the locks of a call whose work was
 * cancelled where its end cannot be seen, released {@code zklock.hold-after-cancel} after the
 * cancel ({@link io.zklock.lock.event.LockListener#onHoldExceeded} with {@code released}
 * {@code true} for every lock of the call, not for a semaphore's permit, which is no lock; the
 * {@code zklock.hold.exceeded} meter counts both).
 */
final class HoldWarnings {

	private static final Log logger = LogFactory.getLog(HoldWarnings.class);

	private HoldWarnings() {
	}

	/** The error a call cancelled for passing its hold bound ends with. */
	static HoldExceededException exceededError(LockedCall held, Duration bound) {
		return new HoldExceededException(firstPath(held), bound, capitalized(describe(held)) + " of "
				+ held.methodDescription() + " " + (plural(held) ? "were" : "was") + " held past holdAtMost "
				+ Durations.format(bound) + ", so zklock cancelled the call (onHoldExceeded = CANCEL)");
	}

	/**
	 * A hold passed its bound; it stays held.
	 * @param action what becomes of the call and its lock under the policy, a sentence
	 * @param holder the thread inside the method when the bound passed, or {@code null}
	 * @param stack its stack then, or {@code null}
	 */
	static void exceeded(LockedCall held, Duration bound, String action, @Nullable Thread holder,
			StackTraceElement @Nullable [] stack) {
		Duration heldFor = heldFor(held);
		String message = capitalized(describe(held)) + " of " + held.methodDescription() + " "
				+ (plural(held) ? "have" : "has") + " been held for " + Durations.format(heldFor) + ", past its holdAtMost of "
				+ Durations.format(bound) + ". " + action + ".";
		if (holder != null && stack != null) {
			HolderStack trace = new HolderStack("Holder thread '" + holder.getName() + "' (" + holder.getState()
					+ ") was running " + held.methodDescription() + " at");
			trace.setStackTrace(stack);
			logger.warn(message, trace);
		}
		else {
			logger.warn(message + " No thread runs the method now: its work goes on behind the CompletionStage, Mono "
					+ "or Flux it returned, on threads zklock does not know.");
		}
	}

	/**
	 * The locks of a call whose work was cancelled where its end cannot be seen are released
	 * now, {@code zklock.hold-after-cancel} after the cancel (or sooner, when the application
	 * stops).
	 * @param cancelledAt when the work was cancelled, on {@link System#nanoTime()}
	 * @param how who cancelled it, such as {@code "its subscriber cancelled it"}
	 */
	static void releasedAfterCancel(LockedCall held, HoldBounds bounds, long cancelledAt, String how) {
		Duration sinceCancel = Duration.ofNanos(System.nanoTime() - cancelledAt);
		Duration bound = bounds.holdAfterCancel();
		String when = (sinceCancel.compareTo(bound) >= 0)
				? Durations.format(sinceCancel) + " after the cancel (zklock.hold-after-cancel=" + Durations.format(bound) + ")"
				: Durations.format(sinceCancel) + " after the cancel, before zklock.hold-after-cancel (" + Durations.format(bound)
						+ ") passed, since the application is stopping";
		logger.warn("Releasing " + describe(held) + " of " + held.methodDescription() + " " + when
				+ ", without having seen its work end: the call was cancelled (" + how + "), and nothing tells when "
				+ "cancelled work stops (a cancelled stage completes at once, a cancelled Reactor publisher signals "
				+ "nothing more). Work of this call still running now runs without the lock. If it stops on cancel "
				+ "(a non-blocking pipeline), zklock.hold-after-cancel=0 releases at once; if it may run longer, "
				+ "raise it.");
		Duration heldFor = heldFor(held);
		for (LockHandle lock : held.locks()) {
			notify(bounds, new LockTarget(lock.lockPath(), lock.lockName(), lock.mode()), lock.fencingToken(),
					heldFor, bound);
		}
	}

	private static void notify(HoldBounds bounds, LockTarget target, long token, Duration heldFor, Duration bound) {
		try {
			bounds.events().onHoldExceeded(target, token, heldFor, bound, true);
		}
		catch (RuntimeException ex) {
			logger.warn("A lock listener failed in onHoldExceeded for '" + target.lockPath() + "'", ex);
		}
	}

	/** {@code "the EXCLUSIVE lock on 'a' (fencing token 7)"}, the locks on several paths, or a permit. */
	static String describe(LockedCall held) {
		List<LockHandle> locks = held.locks();
		PermitLease permit = held.permit();
		if (permit != null) {
			return "a permit of semaphore '" + permit.path() + "'";
		}
		if (locks.size() == 1) {
			LockHandle lock = locks.get(0);
			return "the " + lock.mode() + " lock on '" + lock.lockPath() + "' (fencing token " + lock.fencingToken()
					+ ")";
		}
		return "the locks on " + locks.stream()
			.map((lock) -> "'" + lock.lockPath() + "' (" + lock.mode() + ", fencing token " + lock.fencingToken() + ")")
			.collect(Collectors.joining(", "));
	}

	private static Duration heldFor(LockedCall held) {
		return Duration.ofNanos(System.nanoTime() - held.grantedAt());
	}

	private static boolean plural(LockedCall held) {
		return held.locks().size() > 1;
	}

	private static String firstPath(LockedCall held) {
		PermitLease permit = held.permit();
		return (permit != null) ? permit.path() : held.locks().get(0).lockPath();
	}

	private static String capitalized(String text) {
		return Character.toUpperCase(text.charAt(0)) + text.substring(1);
	}

	/** The holder thread's stack, printed under the WARN like an exception's. */
	static final class HolderStack extends RuntimeException {

		HolderStack(String message) {
			super(message, null, false, true);
		}

	}

}
