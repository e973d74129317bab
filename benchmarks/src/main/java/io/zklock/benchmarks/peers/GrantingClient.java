package io.zklock.benchmarks.peers;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

import io.zklock.benchmarks.client.LockClient;
import io.zklock.lock.LockMode;

/**
 * A client of a peer (exclusive locks only) that gives {@link Grant}s; as a {@link LockClient}
 * it takes a lock and releases it.
 */
abstract class GrantingClient implements LockClient {

	private final String root;

	GrantingClient(String root) {
		this.root = root;
	}

	/**
	 * Takes the lock on a name, waiting as long as it takes.
	 * @param name the lock's full name ({@link #zooKeeperPath(String)})
	 * @return the grant
	 * @throws Exception if the library fails
	 */
	abstract Grant grant(String name) throws Exception;

	/**
	 * Takes the lock on a name, waiting at most {@code wait}.
	 * @param name the lock's full name
	 * @param wait the longest wait
	 * @return the grant, or {@code null} if the wait ran out
	 * @throws Exception if the library fails
	 */
	abstract Grant grant(String name, Duration wait) throws Exception;

	@Override
	public final Held lock(String lockPath, LockMode mode) throws Exception {
		return grant(name(lockPath, mode))::release;
	}

	@Override
	public final Held lock(String lockPath, LockMode mode, Duration wait) throws Exception {
		Grant grant = grant(name(lockPath, mode), wait);
		if (grant == null) {
			throw new TimeoutException("No lock on '" + lockPath + "' within " + wait);
		}
		return grant::release;
	}

	private String name(String lockPath, LockMode mode) {
		if (mode != LockMode.EXCLUSIVE) {
			throw new UnsupportedOperationException(getClass().getSimpleName() + " has exclusive locks only");
		}
		return zooKeeperPath(lockPath);
	}

	/** The lock's name on its server: the root, a slash, the lock path. */
	@Override
	public final String zooKeeperPath(String lockPath) {
		return this.root + "/" + lockPath;
	}

}
