package io.zklock.lock;

/**
 * How a lock node takes part in the queue of waiters on one lock path.
 *
 * <p>
 * Node names follow Apache Curator's recipes so that zklock and plain Curator exclude
 * each other on the same lock path: {@link #EXCLUSIVE} nodes are named like
 * {@code InterProcessMutex} nodes ({@code …-lock-NNNNNNNNNN}), {@link #READ} and
 * {@link #WRITE} nodes like {@code InterProcessReadWriteLock} nodes
 * ({@code …__READ__NNNNNNNNNN}, {@code …__WRIT__NNNNNNNNNN}).
 */
public enum LockMode {

	/** Exclusive lock: one holder at a time, waiters served in FIFO order of their nodes. */
	EXCLUSIVE("lock-"),

	/** Shared (read) lock: held together with other readers, never with a writer or an exclusive holder. */
	READ("__READ__"),

	/** Write lock: excludes every other holder, like {@link #EXCLUSIVE}, in the read/write queue. */
	WRITE("__WRIT__");

	private final String nodeMarker;

	LockMode(String nodeMarker) {
		this.nodeMarker = nodeMarker;
	}

	/**
	 * The text that stands right before the ten-digit sequence number in a lock node's name.
	 * @return the node-name marker, for example {@code "lock-"}
	 */
	public String nodeMarker() {
		return this.nodeMarker;
	}

	/**
	 * Whether a holder in this mode keeps readers out.
	 * @return {@code true} for {@link #EXCLUSIVE} and {@link #WRITE}
	 */
	public boolean excludesReaders() {
		return this != READ;
	}

	/**
	 * Whether a lock already held in this mode also grants {@code requested} to the same
	 * thread without a new lock node (reentrancy, or downgrading a write lock to a read).
	 * @param requested the mode the thread asks for
	 * @return {@code true} if this mode is at least as strong as {@code requested}
	 */
	public boolean covers(LockMode requested) {
		return this == requested || excludesReaders();
	}

}
