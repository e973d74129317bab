package io.zklock.benchmarks.client;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Lock;

import org.springframework.integration.zookeeper.lock.ZookeeperLockRegistry;

import io.zklock.lock.LockMode;

/**
 * Spring Integration's {@link ZookeeperLockRegistry} with its defaults: {@code obtain(key)}
 * returns the registry's cached lock for the key, {@code lock()}/{@code unlock()} on it (a
 * bounded {@code tryLock} runs the acquire on the registry's task executor). Exclusive locks
 * only.
 */
final class SpringIntegrationLockClient implements LockClient {

	private final ZookeeperLockRegistry registry;

	private final String root;

	SpringIntegrationLockClient(ZkClient client, String root) {
		this.root = root;
		this.registry = new ZookeeperLockRegistry(client.curator(), root);
	}

	@Override
	public Held lock(String lockPath, LockMode mode) {
		Lock lock = lockOf(lockPath, mode);
		lock.lock();
		return lock::unlock;
	}

	@Override
	public Held lock(String lockPath, LockMode mode, Duration wait) throws Exception {
		Lock lock = lockOf(lockPath, mode);
		if (!lock.tryLock(wait.toNanos(), TimeUnit.NANOSECONDS)) {
			throw new TimeoutException("No lock on '" + lockPath + "' within " + wait);
		}
		return lock::unlock;
	}

	private Lock lockOf(String lockPath, LockMode mode) {
		if (mode != LockMode.EXCLUSIVE) {
			throw new UnsupportedOperationException(
					"Spring Integration's ZookeeperLockRegistry has no " + mode + " locks, only exclusive ones");
		}
		return this.registry.obtain(lockPath);
	}

	@Override
	public String zooKeeperPath(String lockPath) {
		return this.root + "/" + lockPath;
	}

	@Override
	public void close() {
		this.registry.destroy();
	}

}
