package io.zklock.autoconfigure;

import org.jspecify.annotations.Nullable;

/**
 * A start-up failure of zklock that says what is wrong and what to do about it;
 * {@link ZkLockFailureAnalyzer} shows both instead of a stack trace.
 */
public class ZkLockStartupException extends RuntimeException {

	/** What is wrong, naming the bad value. */
	private final String description;

	/** What to do, naming the property to change. */
	private final String action;

	/**
	 * Creates the exception.
	 * @param description what is wrong, naming the bad value
	 * @param action what to do, naming the property to change
	 * @param cause the underlying failure, or {@code null}
	 */
	public ZkLockStartupException(String description, String action, @Nullable Throwable cause) {
		super(description + " " + action, cause);
		this.description = description;
		this.action = action;
	}

	/**
	 * What is wrong.
	 * @return the description, naming the bad value
	 */
	public String getDescription() {
		return this.description;
	}

	/**
	 * What to do about it.
	 * @return the action, naming the property to change
	 */
	public String getAction() {
		return this.action;
	}

}
