/**
 * zklock's lock API: fair exclusive and read/write locks and semaphores on Apache ZooKeeper
 * through Apache Curator, with fencing tokens and lock-loss detection. This package is all a
 * locking application imports; it has no Spring dependency, so it works in any Java program, and
 * under Spring Boot the same types are beans.
 *
 * <h2>The layers of zklock-core</h2>
 *
 * <pre>
 *    application code
 *         │  injects ILockByCurator, or constructs a bean over a Curator client
 *         ▼
 *  ┌────────────────────────────────────────────────────────────────────────┐
 *  │ io.zklock.lock            the API (this package): what you import      │
 *  │   ILockByCurator ◄── ExclusiveLockByCurator, SharedLockByCurator       │
 *  │   SemaphoreByCurator, LockRequest, LockHandle, LockMode, exceptions…   │
 *  │   LockEngine (and its Builder): the engine of one client               │
 *  ├────────────────────────────────────────────────────────────────────────┤
 *  │ io.zklock.lock.event      what happens to the locks, what is held:     │
 *  │   LockListener, LockTarget, HeldLock (imports the API only)            │
 *  └──────────────┬───────────────────────────────────────────▲─────────────┘
 *                 │ LockEngine hands each call to             │ implements and returns
 *  ┌──────────────▼───────────────────────────────────────────┴─────────────┐
 *  │ io.zklock.lock.internal   the machinery: acquire protocol, session     │
 *  │   guard, holds, node deletion, local handoff (no compatibility promise)│
 *  └───────────────────────────────┬────────────────────────────────────────┘
 *                                  ▼
 *                    Apache Curator ──► ZooKeeper ensemble
 *
 *  io.zklock.lock.inspection   what ZooKeeper has: a lock path's queue, the
 *                              session timeout the servers granted; for
 *                              operations (the actuator endpoint) and tests
 *  io.zklock.internal          what zklock's modules share below their APIs
 *                              (lock-path syntax, node data, messages; no
 *                              compatibility promise)
 * </pre>
 *
 * No type of an {@code internal} package appears in a public signature of this package or of
 * {@code event} and {@code inspection} (a test keeps it so): the API constructs its engine and
 * calls it, the engine implements and returns the API's types, and what an application compiles
 * against is the API alone.

 * <h2>A first lock</h2>
 *
 * <pre class="code">
 * CuratorFramework client = CuratorFrameworkFactory.newClient("zk1:2181", new ExponentialBackoffRetry(100, 3));
 * client.start();
 * ILockByCurator locks = new ExclusiveLockByCurator(client, "/locks");
 * try (LockHandle lock = locks.acquire("orders/42", LockMode.EXCLUSIVE)) {
 *     write(order, lock.fencingToken());
 * }
 * </pre>
 *
 * A lock path such as {@code "orders/42"} names a lock under the lock root ({@code "/locks"}
 * here, {@code zklock.root-path} under Spring Boot). Waiters queue in FIFO order of their lock
 * nodes and each watches only the node it waits for, so one release wakes one waiter (the lock
 * recipe of the ZooKeeper documentation, as Curator implements it). A lock path's segments are
 * non-empty, not {@code "."} or {@code ".."}, and hold only characters ZooKeeper accepts in node
 * names; an invalid one fails with an {@link IllegalArgumentException} that names it.
 *
 * <h2>Modes and beans</h2>
 * <ul>
 * <li>{@link ExclusiveLockByCurator}: one holder per lock path; its nodes are those of Curator's
 * {@code InterProcessMutex}, so the two exclude each other on one path.</li>
 * <li>{@link SharedLockByCurator}: the read/write lock ({@link LockMode#READ},
 * {@link LockMode#WRITE}); readers hold together, a writer alone; its nodes are those of
 * Curator's {@code InterProcessReadWriteLock}.</li>
 * <li>{@link SemaphoreByCurator}: N permits on one path ({@link PermitLease}), on Curator's
 * {@code InterProcessSemaphoreV2}.</li>
 * </ul>
 * Both lock beans accept every {@link LockMode} in the calls that take one; they differ only in
 * {@link ILockByCurator#defaultMode()}.
 *
 * <h2>Two kinds of hold</h2>
 * A hold has an owner ({@link HoldOwner}):
 * <ul>
 * <li>thread-owned: {@link ILockByCurator#acquireDistributedLock(String)} and
 * {@link ILockByCurator#releaseDistributedLock(String)} on the same thread,
 * {@link ILockByCurator#asLock(String)} (a {@link java.util.concurrent.locks.Lock}),
 * {@link ILockByCurator#asInterProcessLock(String, LockMode)}; reentrant per thread and lock
 * path, counted locally without a ZooKeeper call;</li>
 * <li>call-owned: {@link ILockByCurator#acquire(String, LockMode)},
 * {@link ILockByCurator#tryAcquire(String, LockMode, java.time.Duration)},
 * {@link ILockByCurator#executeLocked(String, LockMode, java.time.Duration, LockCallback)} and its
 * {@link Runnable} form: a
 * {@link LockHandle} released from any thread (asynchronous code needs it), never reentrant:
 * a second acquire of the same lock path queues behind the first, even on the same thread.</li>
 * </ul>
 * Every call goes through one primitive, {@link ILockByCurator#tryAcquire(LockRequest)}: a
 * {@link LockRequest} names the lock path and mode, and optionally a wait
 * ({@link LockRequest#waitAtMost(java.time.Duration)}, measured on {@link System#nanoTime()}
 * and bounding the ZooKeeper calls too), an owner, a name for metrics, and an uninterruptible
 * wait. {@link ILockByCurator#tryAcquireAll(java.util.Collection, LockMode, java.time.Duration)}
 * takes several lock paths in one canonical order, all or nothing ({@link LockGroup}).
 *
 * <h2>The handle, fencing tokens and lock loss</h2>
 * A {@link LockHandle} carries the {@link LockHandle#fencingToken()}: a ZooKeeper zxid that is
 * its grant's alone (at least its lock node's {@code czxid}), unique across lock paths and
 * growing with every grant, so a resource that refuses tokens smaller than one it has seen stays safe when a
 * paused holder wakes up after losing its lock; for state kept in ZooKeeper,
 * {@link GuardedTransaction} writes only while the holder's lock node exists. A lock lives as
 * long as the client's session: a suspended connection puts it in doubt, a lost session loses
 * it ({@link LockState}); {@link LockHandle#isHeld()} turns false and
 * {@link LockHandle#onLost(java.util.function.Consumer)} is called. Release a handle once; the
 * {@link ReleaseResult} says whether the lock was still held, lost meanwhile, or whether the
 * delete goes on in the background.
 *
 * <h2>Errors</h2>
 * An invalid lock path or argument throws {@link IllegalArgumentException} naming the value and
 * the fix; a wait that runs out returns empty from the {@code tryAcquire} calls and throws
 * {@link LockAcquisitionException} from the others, as do an interrupt and a ZooKeeper failure.
 * No lock node of a failed acquire is left behind. {@link LockLostException} is for work that
 * finished after its lock was lost.
 *
 * <h2>Sharing one engine, observing it</h2>
 * Each constructor that takes a client makes its own engine. To share one between the beans
 * (so that they see each other's holds) and to observe its locks with
 * {@link io.zklock.lock.event.LockListener}s, create the engine once
 * ({@link LockEngine#builder(org.apache.curator.framework.CuratorFramework)} for its settings:
 * the holder its lock nodes name, local handoff, leak detection):
 *
 * <pre class="code">
 * LockEngine engine = new LockEngine(client, "/locks");
 * engine.addListener(metrics);
 * ILockByCurator locks = new ExclusiveLockByCurator(engine);
 * SharedLockByCurator readWrite = new SharedLockByCurator(engine);
 * SemaphoreByCurator semaphores = new SemaphoreByCurator(engine);
 * </pre>
 *
 * {@link ILockByCurator#heldLocks()} lists the holds ({@link io.zklock.lock.event.HeldLock}) and
 * {@link ILockByCurator#isHeldByCurrentThread(String)} answers for the current thread.
 *
 * <p>
 * Every type of this package is thread-safe unless its documentation says otherwise. Types of
 * this package are non-null unless marked {@link org.jspecify.annotations.Nullable}.
 */
@NullMarked
package io.zklock.lock;

import org.jspecify.annotations.NullMarked;
