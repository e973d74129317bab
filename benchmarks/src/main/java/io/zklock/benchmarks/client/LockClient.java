package io.zklock.benchmarks.client;

import io.zklock.lock.LockMode;

/**
 * One library's locks over one session or connection ({@link ZkClient} for the ZooKeeper
 * libraries): what a process of a service would hold.
 * Thread-safe; the lock a thread takes must be released by the same thread (Curator and
 * Spring Integration require it).
 */
public interface LockClient extends AutoCloseable {

	/**
	 * Acquires a lock, waiting as long as it takes.
	 * @param lockPath the lock path, relative to this client's root, such as {@code "hot"}
	 * @param mode the mode; {@link LockMode#READ} and {@link LockMode#WRITE} only where
	 * {@link Library#supportsReadWrite()}, and never for a peer that is not on ZooKeeper
	 * @return what releases the lock
	 * @throws Exception if the library fails
	 */
	Held lock(String lockPath, LockMode mode) throws Exception;

	/**
	 * Acquires a lock, waiting at most {@code wait}: zklock's
	 * {@code tryAcquire(path, mode, wait)}, Curator's {@code acquire(time, unit)}, Spring
	 * Integration's {@code tryLock(time, unit)}.
	 * @param lockPath the lock path, relative to this client's root
	 * @param mode the mode, as for {@link #lock(String, LockMode)}
	 * @param wait the longest wait
	 * @return what releases the lock
	 * @throws java.util.concurrent.TimeoutException if the wait ran out
	 * @throws Exception if the library fails
	 */
	Held lock(String lockPath, LockMode mode, java.time.Duration wait) throws Exception;

	/**
	 * The ZooKeeper path whose children are the lock nodes of {@code lockPath} (for a peer not
	 * on ZooKeeper, the name of its lock).
	 * @param lockPath the lock path, such as {@code "hot"}
	 * @return the full ZooKeeper path
	 */
	String zooKeeperPath(String lockPath);

	/** Releases library resources; held locks must have been released first. */
	@Override
	default void close() {
	}

	/** A held lock. */
	@FunctionalInterface
	interface Held {

		/**
		 * Releases the lock.
		 * @throws Exception if the library fails
		 */
		void unlock() throws Exception;

	}

}
