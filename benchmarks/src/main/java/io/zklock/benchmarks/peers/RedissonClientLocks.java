package io.zklock.benchmarks.peers;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

import org.redisson.Redisson;
import org.redisson.api.RFencedLock;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson's locks as its documentation shows them: one {@link RedissonClient} per process
 * (its defaults: a connection pool and a pub/sub connection to the one server), {@code lock()}
 * without a lease time, so the watchdog keeps the lock while the holder lives (30 s by default,
 * renewed every 10 s), and {@code unlock()} on the holding thread. {@link RLock} gives no
 * fencing token; {@link RFencedLock} gives one from {@code lockAndGetToken()}.
 */
final class RedissonClientLocks extends GrantingClient {

	private final RedissonClient redisson;

	private final boolean fenced;

	RedissonClientLocks(String address, String root, boolean fenced, Duration lease) {
		super(root);
		Config config = new Config();
		config.useSingleServer().setAddress(address);
		if (lease != null) {
			config.setLockWatchdogTimeout(lease.toMillis());
		}
		this.redisson = Redisson.create(config);
		this.fenced = fenced;
	}

	@Override
	Grant grant(String name) {
		if (this.fenced) {
			RFencedLock lock = this.redisson.getFencedLock(name);
			return grant(lock, lock.lockAndGetToken());
		}
		RLock lock = this.redisson.getLock(name);
		lock.lock();
		return grant(lock, null);
	}

	@Override
	Grant grant(String name, Duration wait) throws InterruptedException {
		if (this.fenced) {
			RFencedLock lock = this.redisson.getFencedLock(name);
			Long token = lock.tryLockAndGetToken(wait.toNanos(), TimeUnit.NANOSECONDS);
			return (token == null) ? null : grant(lock, token);
		}
		RLock lock = this.redisson.getLock(name);
		return lock.tryLock(wait.toNanos(), TimeUnit.NANOSECONDS) ? grant(lock, null) : null;
	}

	private static Grant grant(RLock lock, Long token) {
		return new Grant() {

			@Override
			public OptionalLong token() {
				return (token == null) ? OptionalLong.empty() : OptionalLong.of(token);
			}

			@Override
			public boolean believesHeld() {
				// asks the server: HEXISTS on the lock's hash for this client and thread
				return lock.isHeldByCurrentThread();
			}

			@Override
			public void release() {
				lock.unlock();
			}

		};
	}

	@Override
	public void close() {
		this.redisson.shutdown();
	}

}
