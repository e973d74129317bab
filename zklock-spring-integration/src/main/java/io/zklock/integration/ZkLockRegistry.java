package io.zklock.integration;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.locks.Lock;

import io.zklock.internal.LockPaths;
import io.zklock.lock.HoldOwner;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockRequest;
import io.zklock.lock.LockState;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.integration.support.locks.ExpirableLockRegistry;
import org.springframework.util.ClassUtils;

/**
 * Spring Integration's {@code LockRegistry} on zklock: {@link #obtain(Object)} gives a fair,
 * thread-owned, reentrant {@link FencedLock} on the lock path {@code <prefix>/<key>} under
 * zklock's lock root, the key encoded as one lock-path segment
 * ({@link LockPaths#encodeSegment(String)}: {@code "a/b"} is one segment {@code "a%2Fb"}).
 * A drop-in replacement for Spring Integration's {@code ZookeeperLockRegistry} wherever Spring
 * Integration takes a registry: the aggregator and resequencer, {@code LockRequestHandlerAdvice},
 * {@code LockRegistryLeaderInitiator}.
 *
 * <p>
 * What it adds to {@code ZookeeperLockRegistry}:
 * <ul>
 * <li>Lock loss is seen. A hold whose connection was suspended (in doubt) or whose session
 * expired (lost) is never re-entered: {@code tryLock} from its owner answers {@code false}
 * and gives the hold up, {@code lock()} gives it up and queues again, and the
 * {@code unlock()} that ends a lost hold throws
 * {@link java.util.ConcurrentModificationException}. Curator's
 * {@code InterProcessMutex}, under {@code ZookeeperLockRegistry}, re-enters from its thread
 * data without asking ZooKeeper, so a leader initiator's heartbeat goes on succeeding after
 * the session expired and another instance took the lock.</li>
 * <li>Fencing tokens: {@link FencedLock#fencingToken()} for the holding thread,
 * {@link #fencingToken(Object)} for any thread of the process (a leader's workers).</li>
 * <li>Nothing to evict: a lock view holds no state (each thread's holds live in this
 * registry, per thread), so no cache can drop a held lock, and idle lock paths are
 * ZooKeeper container nodes that the server removes.</li>
 * <li>{@code tryLock()} tries once without waiting (Spring Integration's ZooKeeper lock waits
 * up to a second).</li>
 * </ul>
 *
 * <p>
 * Thread-safe. Keys are strings, as in Spring Integration's other registries.
 *
 * @see <a href="https://zookeeper.apache.org/doc/current/recipes.html#sc_recipes_Locks">ZooKeeper
 * lock recipe</a>
 */
public class ZkLockRegistry implements ExpirableLockRegistry<Lock> {

	private static final Logger logger = LoggerFactory.getLogger(ZkLockRegistry.class);

	/** The default lock-path prefix. */
	public static final String DEFAULT_PREFIX = "spring-integration";

	/**
	 * Whether Spring Integration 7's {@code DistributedLock} is on the class path: then
	 * {@link #obtain(Object)} hands out {@link FencedDistributedLock}s, whose class is loaded only
	 * then (Spring Integration 6.5 has no such interface).
	 */
	private static final boolean DISTRIBUTED_LOCK_PRESENT = ClassUtils.isPresent(
			"org.springframework.integration.support.locks.DistributedLock", ZkLockRegistry.class.getClassLoader());

	private final ILockByCurator locks;

	private final String prefix;

	private final String lockName;

	private final ThreadHolds.PerThread threadHolds = new ThreadHolds.PerThread();

	/**
	 * A registry locking under {@value #DEFAULT_PREFIX}.
	 * @param locks zklock's lock API, such as the {@code ExclusiveLockByCurator} bean
	 */
	public ZkLockRegistry(ILockByCurator locks) {
		this(locks, DEFAULT_PREFIX);
	}

	/**
	 * A registry locking under {@code prefix}.
	 * @param locks zklock's lock API, such as the {@code ExclusiveLockByCurator} bean
	 * @param prefix the lock path under which keys are locked, such as {@code "spring-integration"}
	 * or {@code "billing/integration"}; empty to lock keys directly under the lock root
	 * @throws IllegalArgumentException if {@code locks} is {@code null} or the prefix is not a
	 * valid lock path (an empty segment, {@code "."} or {@code ".."})
	 */
	public ZkLockRegistry(ILockByCurator locks, String prefix) {
		if (locks == null) {
			throw new IllegalArgumentException("ILockByCurator must not be null: pass the ExclusiveLockByCurator bean");
		}
		if (prefix == null) {
			throw new IllegalArgumentException("Lock-path prefix must not be null; use \"\" for none");
		}
		this.locks = locks;
		this.prefix = prefix.isEmpty() ? "" : LockPaths.normalize(prefix);
		this.lockName = this.prefix.isEmpty() ? "lock-registry" : this.prefix;
	}

	/**
	 * The lock on {@code lockKey}: a view of the lock path {@code <prefix>/<encoded key>}. Cheap:
	 * views of one key share their holds, so obtain as many as you like.
	 * @param lockKey the key, a {@link String} such as a correlation id
	 * @return the lock; with Spring Integration 7 on the class path, a {@link FencedDistributedLock}
	 * (Spring Integration's {@code DistributedLock}, whose {@code ttl} bounds the hold)
	 * @throws IllegalArgumentException if the key is {@code null}, not a {@code String}, or empty
	 */
	@Override
	public FencedLock obtain(Object lockKey) {
		String key = checkKey(lockKey);
		return DISTRIBUTED_LOCK_PRESENT ? ZkDistributedRegistryLock.of(this, key, lockPath(key))
				: new ZkRegistryLock(this, key, lockPath(key));
	}

	/**
	 * The fencing token of the hold this process has on {@code lockKey} now, whichever thread
	 * holds it: for a leader's workers, which run on other threads than the one holding the
	 * leader's lock. Never calls ZooKeeper.
	 * @param lockKey the key, such as the leader initiator's role
	 * @return the token while a hold of this process is held (not in doubt, not lost), else
	 * empty
	 * @throws IllegalArgumentException if the key is invalid
	 */
	public OptionalLong fencingToken(Object lockKey) {
		String lockPath = lockPath(checkKey(lockKey));
		return this.locks.heldLocks()
			.stream()
			.filter((held) -> held.lockPath().equals(lockPath) && held.state() == LockState.HELD)
			.mapToLong((held) -> held.fencingToken())
			.findFirst();
	}

	/**
	 * The lock path of a key.
	 * @param lockKey the key
	 * @return {@code <prefix>/<encoded key>}, such as {@code "spring-integration/orders%2F42"}
	 * @throws IllegalArgumentException if the key is invalid
	 */
	public String lockPath(Object lockKey) {
		String segment = LockPaths.encodeSegment(checkKey(lockKey));
		return this.prefix.isEmpty() ? segment : this.prefix + "/" + segment;
	}

	/**
	 * Does nothing: this registry keeps no object per key that could be expired. Lock views
	 * hold no state, and ZooKeeper removes idle lock paths itself (container nodes).
	 * @param age ignored
	 */
	@Override
	public void expireUnusedOlderThan(long age) {
	}

	ThreadHolds.PerThread threadHolds() {
		return this.threadHolds;
	}

	/**
	 * A thread-owned, exclusive request to zklock's engine, its hold bounded by {@code maxHold}
	 * if given.
	 */
	Optional<LockHandle> request(String lockPath, @Nullable Duration wait, boolean interruptible,
			@Nullable Duration maxHold) {
		LockRequest request = LockRequest.of(lockPath, LockMode.EXCLUSIVE).ownedBy(HoldOwner.THREAD).named(this.lockName);
		if (wait != null) {
			request = request.waitAtMost(wait);
		}
		if (maxHold != null) {
			request = request.holdAtMost(maxHold);
		}
		if (!interruptible) {
			request = request.uninterruptibly();
		}
		return this.locks.tryAcquire(request);
	}

	/**
	 * Gives up the current thread's holds of one lock path, found in doubt or lost: releases
	 * them (deleting the lock node if it still exists) and owes their unlocks.
	 */
	void giveUp(String key, ThreadHolds holds) {
		LockHandle top = holds.handles.peek();
		if (top == null) {
			return;
		}
		LockState state = top.state();
		int count = holds.handles.size();
		holds.lostToken = top.fencingToken();
		while (!holds.handles.isEmpty()) {
			holds.handles.pop().release();
		}
		holds.lostUnlocksOwed += count;
		logger.warn("Lock '{}' (lock path '{}', fencing token {}) was {} when thread '{}' locked it again: its {} "
				+ "hold(s) are given up (tryLock answers false, lock() queues again), and the unlock that ends "
				+ "them throws ConcurrentModificationException", key, top.lockPath(), holds.lostToken, state,
				Thread.currentThread().getName(), count);
	}

	private static String checkKey(@Nullable Object lockKey) {
		if (!(lockKey instanceof String key)) {
			throw new IllegalArgumentException("Lock key " + ((lockKey != null) ? "'" + lockKey + "' of type "
					+ lockKey.getClass().getName() : "null") + " is invalid: ZkLockRegistry takes String keys, "
					+ "such as a correlation id; convert the key with toString() where that names it uniquely");
		}
		if (key.isEmpty()) {
			throw new IllegalArgumentException("Lock key '' is invalid: it is empty; use a non-empty String key");
		}
		return key;
	}

	@Override
	public String toString() {
		return "ZkLockRegistry[prefix '" + this.prefix + "']";
	}

}
