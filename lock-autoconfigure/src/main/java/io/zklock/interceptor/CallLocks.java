package io.zklock.interceptor;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.zklock.annotation.OnLockFailure;
import io.zklock.annotation.SkippedCall;
import io.zklock.internal.WaitMessages;
import io.zklock.lock.HoldOwner;
import io.zklock.lock.LockAcquisitionException;
import io.zklock.lock.LockRequest;

/**
 * What one call of an annotated method must take, resolved from its arguments, and the taking
 * of it: within the wait, or not at all ({@code onFailure}).
 */
final class CallLocks {

	private static final Log logger = LogFactory.getLog(CallLocks.class);

	private final GuardDefinition definition;

	private final List<ResolvedLock> locks;

	private final @Nullable String semaphorePath;

	private final Duration wait;

	private CallLocks(GuardDefinition definition, List<ResolvedLock> locks, @Nullable String semaphorePath,
			Duration wait) {
		this.definition = definition;
		this.locks = locks;
		this.semaphorePath = semaphorePath;
		this.wait = wait;
	}

	/**
	 * Resolves the lock paths of one call.
	 * @throws IllegalArgumentException if a key cannot be resolved (see {@link LockKeyResolver})
	 */
	static CallLocks resolve(GuardDefinition definition, Method method, Object[] args, @Nullable Object target,
			LockKeyResolver keys, Duration defaultWait) {
		Duration wait = (definition.waitTime() != null) ? definition.waitTime() : defaultWait;
		if (definition instanceof SemaphoreDefinition semaphore) {
			return new CallLocks(definition, List.of(), keys.resolve(semaphore, method, args, target), wait);
		}
		return new CallLocks(definition, keys.resolve((LockDefinition) definition, method, args, target), null, wait);
	}

	GuardDefinition definition() {
		return this.definition;
	}

	/**
	 * Takes the locks (or the permit: semaphore leases are always call-owned) for a new call.
	 * @param owner the owner the call's shape needs
	 * @param skipped told of the call if it is skipped
	 * @return the call, {@code GRANTED}, or {@code null} if it is skipped ({@code onFailure = SKIP})
	 * @throws LockAcquisitionException if the wait ran out ({@code onFailure = THROW}), if
	 * interrupted, or if ZooKeeper fails
	 */
	@Nullable LockedCall acquire(LockAcquirer acquirer, HoldOwner owner, Consumer<SkippedCall> skipped) {
		LockedCall call = acquirer.newCall(this.definition);
		return acquire(call, acquirer, owner, skipped) ? call : null;
	}

	/**
	 * Takes the locks (or the permit) for {@code call}, which may be abandoned meanwhile (it then
	 * releases what it is granted).
	 * @return whether they were granted; {@code false} if the call is skipped
	 * @throws LockAcquisitionException as {@link #acquire(LockAcquirer, HoldOwner, Consumer)}
	 */
	boolean acquire(LockedCall call, LockAcquirer acquirer, HoldOwner owner, Consumer<SkippedCall> skipped) {
		long start = System.nanoTime();
		boolean granted = (this.semaphorePath != null)
				? acquirer.acquire((SemaphoreDefinition) this.definition, this.semaphorePath, this.wait, call)
				: acquirer.acquire((LockDefinition) this.definition, this.locks, this.wait, owner, call);
		if (granted) {
			return true;
		}
		LockAcquisitionException timeout = timeout(acquirer, owner);
		if (this.definition.onFailure() != OnLockFailure.SKIP) {
			throw timeout;
		}
		if (logger.isDebugEnabled()) {
			logger.debug("Skipped " + this.definition.methodDescription() + ": " + timeout.getMessage());
		}
		Duration waited = Duration.ofNanos(System.nanoTime() - start);
		if (this.semaphorePath != null) {
			skipped.accept(new SkippedCall(this.semaphorePath, ((SemaphoreDefinition) this.definition).path().path(),
					null, waited, this.definition.methodDescription(), SkippedCall.Reason.NO_PERMIT));
		}
		for (ResolvedLock lock : this.locks) {
			skipped.accept(new SkippedCall(lock.path(), lock.lockName(), lock.mode(), waited,
					this.definition.methodDescription(), SkippedCall.Reason.LOCK_BUSY));
		}
		return false;
	}

	/**
	 * The exception for a wait that ran out, naming what was busy and the wait, and what the wait
	 * waited for ({@link #waitedFor}), or that the client was not connected.
	 */
	private LockAcquisitionException timeout(LockAcquirer acquirer, HoldOwner owner) {
		String what;
		String first;
		if (this.semaphorePath != null) {
			first = this.semaphorePath;
			what = "one of " + ((SemaphoreDefinition) this.definition).permits() + " permits of semaphore '" + first
					+ "'";
		}
		else if (this.locks.size() == 1) {
			first = this.locks.get(0).path();
			what = "the " + this.locks.get(0).mode() + " lock on '" + first + "'";
		}
		else {
			first = this.locks.get(0).path();
			what = "the locks on " + this.locks.stream().map((lock) -> "'" + lock.path() + "'").toList();
		}
		return new LockAcquisitionException(first, WaitMessages.ranOut("Could not acquire " + what + " within "
				+ this.wait.toMillis() + " ms for " + this.definition.methodDescription(),
				acquirer.disconnectedSince(this.semaphorePath != null), waitedFor(acquirer, owner)));
	}

	/**
	 * What the wait for the locks waited for, as the lock API explains it
	 * ({@link LockAcquirer#explainWait(LockRequest)}): for one lock its explanation, for several
	 * each explained lock path followed by its explanation. {@code null} if nothing is known, and
	 * for a semaphore, whose waits the lock API does not explain.
	 */
	private @Nullable String waitedFor(LockAcquirer acquirer, HoldOwner owner) {
		List<String> explanations = new ArrayList<>();
		for (ResolvedLock lock : this.locks) {
			acquirer.explainWait(LockRequest.of(lock.path(), lock.mode()).ownedBy(owner))
				.ifPresent((explanation) -> explanations
					.add((this.locks.size() == 1) ? explanation : "'" + lock.path() + "', " + explanation));
		}
		return explanations.isEmpty() ? null : String.join("; ", explanations);
	}

}
