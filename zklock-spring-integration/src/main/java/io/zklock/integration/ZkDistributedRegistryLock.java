package io.zklock.integration;

import java.time.Duration;

/**
 * The {@link FencedDistributedLock} that {@link ZkLockRegistry#obtain(Object)} hands out when
 * Spring Integration 7 is on the class path: {@code ttl} becomes the hold's
 * {@link io.zklock.lock.LockRequest#holdAtMost(Duration) holdAtMost}. Loaded only then, since it
 * implements Spring Integration 7's {@code DistributedLock}.
 */
final class ZkDistributedRegistryLock extends ZkRegistryLock implements FencedDistributedLock {

	private ZkDistributedRegistryLock(ZkLockRegistry registry, String key, String lockPath) {
		super(registry, key, lockPath);
	}

	/** A view of {@code lockPath}; called only when Spring Integration 7 is present. */
	static FencedLock of(ZkLockRegistry registry, String key, String lockPath) {
		return new ZkDistributedRegistryLock(registry, key, lockPath);
	}

	@Override
	public void lock(Duration ttl) {
		acquireUninterruptibly(checkTtl(ttl));
	}

	@Override
	public boolean tryLock(Duration waitTime, Duration ttl) throws InterruptedException {
		if (waitTime == null) {
			throw new IllegalArgumentException("Wait time null for lock '" + key() + "' (lock path '" + lockPath()
					+ "') is invalid: use a duration (Duration.ZERO tries once), or lock(ttl) to wait without limit");
		}
		Duration bound = checkTtl(ttl);
		return acquire(waitTime.isNegative() ? Duration.ZERO : waitTime, true, true, bound);
	}

	private Duration checkTtl(Duration ttl) {
		if (ttl == null || ttl.isNegative() || ttl.isZero()) {
			throw new IllegalArgumentException("ttl " + ttl + " for lock '" + key() + "' (lock path '" + lockPath()
					+ "') is invalid: it bounds the hold, so use a positive duration such as Duration.ofMinutes(5), "
					+ "or lock() / tryLock(time, unit) for no bound");
		}
		return ttl;
	}

}
