package io.zklock.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.zklock.lock.LockMode;

/**
 * Runs the annotated method while holding a ZooKeeper lock.
 *
 * <pre class="code">
 * &#064;DistributedLock(path = "orders", key = "#order.id", waitTime = "5s")
 * public void ship(Order order) { … }
 * </pre>
 *
 * The lock is taken before the method runs and released when it returns or throws; when the
 * method runs inside a transaction it did not start, after that transaction completes; when
 * it returns a {@code CompletionStage}, once the stage completes; when it returns a Reactor
 * {@code Mono} or {@code Flux}, the lock is taken on subscription and released on complete,
 * error or cancel. If it cannot be taken within {@link #waitTime()}, the method does not run
 * and, by default, a {@link io.zklock.lock.LockAcquisitionException} names the lock path and
 * the time waited (see {@link #onFailure()}). Inside the method,
 * {@link LockContext#currentLock()} gives the lock and its fencing token; inside the publisher
 * of a {@code Mono} or {@code Flux} method (or a Kotlin {@code suspend} function),
 * {@link ReactiveLockContext#currentLock()} does.
 *
 * <p>
 * Repeatable: a method with several {@code @DistributedLock}s holds them all, taken in one
 * canonical order (sorted lock paths), all or nothing.
 *
 * <p>
 * The interceptor runs at {@code zklock.aspect-order} (default
 * {@code Ordered.LOWEST_PRECEDENCE - 1}), outside a {@code @Transactional} advice on the
 * same bean, so the transaction commits before the lock is released. The annotation works on
 * Spring beans only, through their proxies: a call from the same object bypasses it. It may
 * also be used as a meta-annotation.
 */
@Target({ ElementType.METHOD, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Repeatable(DistributedLocks.class)
public @interface DistributedLock {

	/**
	 * The lock path under the lock root, such as {@code "orders"}.
	 * @return the lock path
	 */
	String path();

	/**
	 * A SpEL expression over the method's arguments (by name, {@code #p0} or {@code #a0})
	 * whose value is appended to {@link #path()} as one more segment: {@code path = "orders",
	 * key = "#order.id"} locks {@code orders/42}. Empty locks {@link #path()} itself. A key that
	 * evaluates to {@code null} or a blank string fails the call. A key that evaluates to a
	 * collection or array locks every element, all or nothing, in canonical order.
	 * @return the key expression
	 */
	String key() default "";

	/**
	 * The lock mode.
	 * @return {@link LockMode#EXCLUSIVE} unless set
	 */
	LockMode mode() default LockMode.EXCLUSIVE;

	/**
	 * The longest wait for the lock, as a duration string: {@code "5s"}, {@code "250ms"},
	 * {@code "PT1M"}, a plain number of milliseconds, or a {@code ${…}} property placeholder.
	 * Empty uses {@code zklock.default-wait-time}; {@code "0"} tries once. With several locks
	 * on one method, they share one deadline: the longest of their wait times. A wait too long to
	 * count in nanoseconds (over 292 years, such as {@code "300000d"}) waits as long as it takes,
	 * as such a wait does in the lock API.
	 * @return the wait
	 */
	String waitTime() default "";

	/**
	 * What happens when the lock is not acquired in time.
	 * @return {@link OnLockFailure#THROW} unless set
	 */
	OnLockFailure onFailure() default OnLockFailure.THROW;

	/**
	 * The shortest time the lock is held, counted from when the call got it, as a duration
	 * string like {@link #waitTime()}: {@code "30s"}, {@code "PT1M"}, a plain number of
	 * milliseconds, or a {@code ${…}} property placeholder. When the method's work is done
	 * sooner (it returned or threw, its {@code CompletionStage} completed, its {@code Mono} or
	 * {@code Flux} terminated or was cancelled, a transaction it joined completed), the caller
	 * goes on at once and the lock is released in the background when the time is up; from
	 * then on the calling thread does not hold it (it is not reentrant there, and
	 * {@code isHeldByCurrentThread} is {@code false}). Made for scheduled jobs on several
	 * instances, like ShedLock's {@code lockAtLeastFor}: with {@code waitTime = "0"} and
	 * {@code onFailure = SKIP}, a job that finishes quickly on one instance does not run again
	 * on another whose scheduler fires a moment later.
	 * <p>
	 * Empty or {@code "0"} releases the lock as soon as the work is done. With several locks on
	 * one method, the longest applies to all of them. When the application context closes
	 * inside the time, its locks are released then; when the process dies, its ZooKeeper
	 * session ends and the lock goes with it (at once on a clean close of the client, after the
	 * session timeout otherwise). A lock lost inside the time stays lost: its release reports
	 * {@link io.zklock.lock.ReleaseResult#LOST}. A time too long to count in nanoseconds (over
	 * 292 years) keeps the lock until the application context closes. Not offered on
	 * {@link DistributedSemaphore}.
	 * @return the shortest hold, empty for none
	 */
	String holdAtLeast() default "";

	/**
	 * The longest the lock should be held, counted from when the call got it, as a duration
	 * string like {@link #waitTime()}: {@code "10m"}, {@code "PT30S"}, a plain number of
	 * milliseconds, or a {@code ${…}} property placeholder; positive. Empty uses
	 * {@code zklock.default-hold-at-most} (none unless set). For a method stuck in a live JVM,
	 * whose lock would otherwise be held for as long as the process lives.
	 * <p>
	 * When it passes while the call's work still runs, zklock reports it (a WARN naming the
	 * lock, the method and the holder thread with its stack, the {@code zklock.hold.exceeded}
	 * meter, {@link io.zklock.lock.event.LockListener#onHoldExceeded}) and acts by
	 * {@link #onHoldExceeded()}. It never releases the lock then, unlike ShedLock's
	 * {@code lockAtMostFor}: another process would run the same work beside a body that still
	 * runs. The lock goes when the call ends, or with the process. A {@link #holdAtLeast()} kept
	 * after the work does not count. With several locks on one method, the shortest applies to
	 * all of them, each from its own grant, and the call is acted on once, at the first lock whose
	 * bound passes; it may not be shorter than {@code holdAtLeast}. The bound is timed by the lock
	 * API's {@link io.zklock.lock.LockRequest#holdAtMost(java.time.Duration)} on the engine's
	 * {@code zklock-hold-bound} thread. Not offered on {@link DistributedSemaphore}.
	 * @return the bound, empty for {@code zklock.default-hold-at-most}
	 */
	String holdAtMost() default "";

	/**
	 * What zklock does when the call holds its lock past {@link #holdAtMost()}, besides reporting
	 * it: {@link OnHoldExceeded#WARN} nothing, {@link OnHoldExceeded#INTERRUPT} interrupts the
	 * thread running the method, {@link OnHoldExceeded#CANCEL} cancels a stage or publisher.
	 * @return {@link OnHoldExceeded#DEFAULT} ({@code zklock.on-hold-exceeded}) unless set
	 */
	OnHoldExceeded onHoldExceeded() default OnHoldExceeded.DEFAULT;

}
