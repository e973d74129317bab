package io.zklock.annotation;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when a {@link DistributedLock}, {@link DistributedSemaphore} or {@link LeaderOnly}
 * annotation cannot be used as written: an invalid {@code path}, {@code key}, {@code waitTime} or
 * role, a setting that does not fit the method (such as a primitive return type where a skipped
 * call needs an empty value), or both lock annotations on one method. It is found when the bean is
 * proxied, that is at start-up; zklock's failure analyzer then prints its
 * {@linkplain #getDescription() description} and {@linkplain #getAction() action} instead of
 * a stack trace.
 */
public class InvalidLockAnnotationException extends IllegalStateException {

	/** The annotated method, as {@code Type.method(ParamTypes)}. */
	private final String methodDescription;

	/** What is wrong, naming the attribute and its value as written. */
	private final String description;

	/** What to write instead. */
	private final String action;

	/**
	 * Creates the exception.
	 * @param methodDescription the annotated method, as {@code Type.method(ParamTypes)}
	 * @param description what is wrong, naming the method, the attribute and its value as
	 * written
	 * @param action what to write instead
	 * @param cause the underlying failure, or {@code null}
	 */
	public InvalidLockAnnotationException(String methodDescription, String description, String action,
			@Nullable Throwable cause) {
		super(description + " " + action, cause);
		this.methodDescription = methodDescription;
		this.description = description;
		this.action = action;
	}

	/**
	 * The annotated method.
	 * @return the method, as {@code Type.method(ParamTypes)}
	 */
	public String getMethodDescription() {
		return this.methodDescription;
	}

	/**
	 * What is wrong.
	 * @return the description, naming the method, the attribute and its value as written
	 */
	public String getDescription() {
		return this.description;
	}

	/**
	 * What to do about it.
	 * @return the action
	 */
	public String getAction() {
		return this.action;
	}

}
