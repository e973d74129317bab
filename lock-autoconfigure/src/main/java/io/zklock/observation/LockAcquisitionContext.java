package io.zklock.observation;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

import io.zklock.lock.LockMode;

/**
 * {@link Observation.Context} of one lock acquire: which lock, in which mode, and once it
 * ended, its outcome and fencing token. Written on the acquiring thread; handlers that read
 * it on another thread see the values set before {@link Observation#stop()}.
 */
public class LockAcquisitionContext extends Observation.Context {

	/** Outcome of an acquire that was granted. */
	public static final String ACQUIRED = "acquired";

	/** Outcome of an acquire whose wait ran out. */
	public static final String TIMEOUT = "timeout";

	/** Outcome of an acquire that failed (interrupted, ZooKeeper error) or reported no end. */
	public static final String ERROR = "error";

	private final String lockPath;

	private final String lockName;

	private final LockMode mode;

	private volatile @Nullable String outcome;

	private volatile long fencingToken;

	/**
	 * Creates the context of an acquire that starts now.
	 * @param lockPath the lock path, such as {@code "orders/42"}
	 * @param lockName the lock's name of bounded cardinality, such as {@code "orders"}
	 * @param mode the requested mode
	 */
	public LockAcquisitionContext(String lockPath, String lockName, LockMode mode) {
		this.lockPath = lockPath;
		this.lockName = lockName;
		this.mode = mode;
	}

	/**
	 * The lock path.
	 * @return the lock path, such as {@code "orders/42"}
	 */
	public String getLockPath() {
		return this.lockPath;
	}

	/**
	 * The lock's name, fit for a low-cardinality key.
	 * @return the name, such as {@code "orders"}
	 */
	public String getLockName() {
		return this.lockName;
	}

	/**
	 * The requested mode.
	 * @return the mode
	 */
	public LockMode getMode() {
		return this.mode;
	}

	/**
	 * How the acquire ended.
	 * @return {@link #ACQUIRED}, {@link #TIMEOUT} or {@link #ERROR}; {@code null} while it
	 * waits
	 */
	public @Nullable String getOutcome() {
		return this.outcome;
	}

	/**
	 * Sets how the acquire ended.
	 * @param outcome {@link #ACQUIRED}, {@link #TIMEOUT} or {@link #ERROR}
	 */
	public void setOutcome(String outcome) {
		this.outcome = outcome;
	}

	/**
	 * The fencing token of the granted lock node.
	 * @return the token, {@code 0} unless the outcome is {@link #ACQUIRED}
	 */
	public long getFencingToken() {
		return this.fencingToken;
	}

	/**
	 * Sets the fencing token of the granted lock node.
	 * @param fencingToken the token
	 */
	public void setFencingToken(long fencingToken) {
		this.fencingToken = fencingToken;
	}

}
