package io.zklock.benchmarks.client;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessLock;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;

import io.zklock.lock.LockMode;

/**
 * Curator's recipes used directly, as Curator advises: one {@link InterProcessMutex} (for
 * {@link LockMode#EXCLUSIVE}) or {@link InterProcessReadWriteLock} (for READ/WRITE) instance
 * per lock path, reused by every thread of the client.
 */
final class CuratorLockClient implements LockClient {

	private final CuratorFramework curator;

	private final String root;

	private final ConcurrentMap<String, InterProcessMutex> mutexes = new ConcurrentHashMap<>();

	private final ConcurrentMap<String, InterProcessReadWriteLock> readWriteLocks = new ConcurrentHashMap<>();

	CuratorLockClient(ZkClient client, String root) {
		this.curator = client.curator();
		this.root = root;
	}

	@Override
	public Held lock(String lockPath, LockMode mode) throws Exception {
		InterProcessLock lock = lockOf(lockPath, mode);
		lock.acquire();
		return lock::release;
	}

	@Override
	public Held lock(String lockPath, LockMode mode, Duration wait) throws Exception {
		InterProcessLock lock = lockOf(lockPath, mode);
		if (!lock.acquire(wait.toNanos(), TimeUnit.NANOSECONDS)) {
			throw new TimeoutException("No " + mode + " lock on '" + lockPath + "' within " + wait);
		}
		return lock::release;
	}

	private InterProcessLock lockOf(String lockPath, LockMode mode) {
		return switch (mode) {
			case EXCLUSIVE -> this.mutexes.computeIfAbsent(lockPath,
					(path) -> new InterProcessMutex(this.curator, zooKeeperPath(path)));
			case READ -> readWriteLock(lockPath).readLock();
			case WRITE -> readWriteLock(lockPath).writeLock();
		};
	}

	private InterProcessReadWriteLock readWriteLock(String lockPath) {
		return this.readWriteLocks.computeIfAbsent(lockPath,
				(path) -> new InterProcessReadWriteLock(this.curator, zooKeeperPath(path)));
	}

	@Override
	public String zooKeeperPath(String lockPath) {
		return this.root + "/" + lockPath;
	}

}
