package io.zklock.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the annotated method while holding one permit of a distributed semaphore: at most
 * {@link #permits()} calls run at once across all processes for one semaphore path.
 *
 * <pre class="code">
 * &#064;DistributedSemaphore(path = "reports", permits = 3, waitTime = "10s")
 * public Report render(ReportRequest request) { … }
 * </pre>
 *
 * The permit is returned when the method returns or throws. If no permit is free within
 * {@link #waitTime()}, the method does not run and a
 * {@link io.zklock.lock.LockAcquisitionException} names the path and the time waited.
 * Backed by Curator's {@code InterProcessSemaphoreV2} (see
 * {@link io.zklock.lock.SemaphoreByCurator}); not reentrant. A method may carry either this
 * or {@link DistributedLock}, not both.
 *
 * <p>
 * There is no {@link DistributedLock#holdAtLeast()} here: a semaphore bounds how many calls
 * run at once, and a permit kept idle after its call would only lower that bound for a
 * while; to keep a job from running again on another instance soon after it ran, use a
 * {@link DistributedLock} with {@code holdAtLeast}.
 */
@Target({ ElementType.METHOD, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface DistributedSemaphore {

	/**
	 * The semaphore path under the lock root, such as {@code "reports"}.
	 * @return the path
	 */
	String path();

	/**
	 * A SpEL expression over the method's arguments whose value is appended to
	 * {@link #path()} as one more segment, as for {@link DistributedLock#key()}.
	 * @return the key expression, empty for none
	 */
	String key() default "";

	/**
	 * The semaphore's permit count, at least 1; every process must use the same count for
	 * one path.
	 * @return the permit count
	 */
	int permits();

	/**
	 * The longest wait for a permit, as for {@link DistributedLock#waitTime()}.
	 * @return the wait, empty for {@code zklock.default-wait-time}
	 */
	String waitTime() default "";

	/**
	 * What happens when no permit is acquired in time.
	 * @return {@link OnLockFailure#THROW} unless set
	 */
	OnLockFailure onFailure() default OnLockFailure.THROW;

}
