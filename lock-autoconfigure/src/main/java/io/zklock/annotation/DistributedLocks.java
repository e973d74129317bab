package io.zklock.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Container of repeated {@link DistributedLock} annotations: the method runs while holding
 * all of them, taken in one canonical order (sorted lock paths), all or nothing.
 */
@Target({ ElementType.METHOD, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface DistributedLocks {

	/**
	 * The locks.
	 * @return the repeated annotations
	 */
	DistributedLock[] value();

}
