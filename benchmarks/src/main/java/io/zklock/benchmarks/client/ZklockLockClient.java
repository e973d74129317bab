package io.zklock.benchmarks.client;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.LockEngine;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;

/**
 * zklock's locks as an application uses them without Spring: one {@link LockEngine} per
 * client, handles from {@link ExclusiveLockByCurator#acquire(String, LockMode)}; local handoff off
 * ({@link Library#ZKLOCK}) or on ({@link Library#ZKLOCK_LOCAL_HANDOFF}).
 */
final class ZklockLockClient implements LockClient {

	private final LockEngine engine;

	private final ExclusiveLockByCurator locks;

	private final String root;

	/** @param localHandoff whether the engine hands lock nodes on locally, with the default bounds */
	ZklockLockClient(ZkClient client, String root, boolean localHandoff) {
		this.root = root;
		this.engine = LockEngine.builder(client.curator()).rootPath(root).localHandoff(localHandoff).build();
		this.locks = new ExclusiveLockByCurator(this.engine);
	}

	@Override
	public Held lock(String lockPath, LockMode mode) {
		LockHandle handle = this.locks.acquire(lockPath, mode);
		return handle::release;
	}

	@Override
	public Held lock(String lockPath, LockMode mode, Duration wait) throws TimeoutException {
		LockHandle handle = this.locks.tryAcquire(lockPath, mode, wait)
			.orElseThrow(() -> new TimeoutException("No " + mode + " lock on '" + lockPath + "' within " + wait));
		return handle::release;
	}

	@Override
	public String zooKeeperPath(String lockPath) {
		return this.root + "/" + lockPath;
	}

	@Override
	public void close() {
		this.engine.close();
	}

}
