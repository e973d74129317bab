package io.zklock.benchmarks.peers;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.cp.lock.FencedLock;
import com.hazelcast.cp.lock.exception.LockOwnershipLostException;

/**
 * Hazelcast's CP subsystem {@link FencedLock} as its documentation shows it: one client
 * instance per process (a smart client, connected to every member), one proxy per lock name,
 * kept (fetching a proxy commits to the METADATA group), {@code lockAndGetFence()} and
 * {@code unlock()} on the holding thread; the CP session of the client keeps the locks while it
 * heartbeats. The fence is the fencing token.
 */
final class HazelcastLocks extends GrantingClient {

	private final HazelcastInstance client;

	private final ConcurrentMap<String, FencedLock> locks = new ConcurrentHashMap<>();

	HazelcastLocks(String addresses, String root) {
		super(root);
		this.client = HazelcastCluster.client(addresses);
	}

	private FencedLock lock(String name) {
		return this.locks.computeIfAbsent(name, (key) -> this.client.getCPSubsystem().getLock(key));
	}

	@Override
	Grant grant(String name) {
		FencedLock lock = lock(name);
		return grant(lock, lock.lockAndGetFence());
	}

	@Override
	Grant grant(String name, Duration wait) {
		FencedLock lock = lock(name);
		long fence = lock.tryLockAndGetFence(wait.toNanos(), TimeUnit.NANOSECONDS);
		return (fence == FencedLock.INVALID_FENCE) ? null : grant(lock, fence);
	}

	private static Grant grant(FencedLock lock, long fence) {
		return new Grant() {

			@Override
			public OptionalLong token() {
				return OptionalLong.of(fence);
			}

			@Override
			public boolean believesHeld() {
				// asks the CP group; a closed session makes it throw
				try {
					return lock.isLockedByCurrentThread();
				}
				catch (LockOwnershipLostException ex) {
					return false;
				}
			}

			@Override
			public void release() {
				lock.unlock();
			}

		};
	}

	@Override
	public void close() {
		this.client.shutdown();
	}

}
