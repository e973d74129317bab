package io.zklock.lock;

import java.util.ArrayList;
import java.util.List;

import io.zklock.lock.internal.GuardedWrites;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.OpResult;

/**
 * A write to ZooKeeper guarded by the lock itself: the operations run in one ZooKeeper
 * transaction ({@code multi}) behind a {@code check} that the holder's lock node still exists,
 * so they apply only while the lock is held, and not at all once it was lost, however long the
 * holder was paused between its last look at the lock and the write. This is the resource side
 * of fencing for state kept in ZooKeeper: ZooKeeper orders the check and the writes with every
 * other holder's operations, so no token needs comparing (the direction CURATOR-689 proposes;
 * etcd guards its transactions on the lock key the same way; Kleppmann, "How to do distributed
 * locking", 2016).
 *
 * <pre class="code">
 * try (LockHandle lock = locks.acquire("config/pricing", LockMode.EXCLUSIVE)) {
 *     GuardedTransaction.commit(client, lock,
 *             client.transactionOp().setData().forPath("/config/pricing", json));
 * }
 * </pre>
 *
 * The {@code client} must be the Curator client the lock was taken with, or one with the same
 * namespace: {@link LockHandle#nodePath()} is a path inside that namespace, and so are the
 * operations' paths.
 *
 * <p>
 * With local handoff ({@link LockEngine.Builder#localHandoff(boolean)}) a lock node passes from one
 * holder of this process to the next unchanged, so the node's check alone does not tell those
 * holders apart.
 * {@link #commit} does: while its transaction is under way, a release of the handle hands the node
 * to no other holder, so the writes apply only while this holder's grant stands. A transaction of
 * one's own with {@link #lockCheck} guards the node only: run it before releasing the handle
 * (docs/lock-protocol.md, "Guarded writes with local handoff"). Thread-safe (stateless).
 */
public final class GuardedTransaction {

	private GuardedTransaction() {
	}

	/**
	 * The check that the lock's node still exists, as the first operation of a transaction of
	 * one's own ({@code client.transaction().forOperations(check, …)}); {@link #commit} adds it
	 * for you and tells a lost lock from the operations' own failures. It guards the lock node, not
	 * this holder: with local handoff the node passes to the next holder of this process when the
	 * handle is released, and the check still passes then, so run the transaction while the handle
	 * is held (or use {@link #commit}, which keeps the node from passing on while it runs).
	 * @param client the lock's Curator client (or one with the same namespace)
	 * @param lock an {@link LockMode#EXCLUSIVE} or {@link LockMode#WRITE} lock
	 * @return the check operation
	 * @throws IllegalArgumentException if an argument is {@code null} or the lock is a shared
	 * {@link LockMode#READ} lock, which guards no write
	 * @throws IllegalStateException if the handle was released
	 * @throws Exception if Curator cannot build the operation
	 */
	public static CuratorOp lockCheck(CuratorFramework client, LockHandle lock) throws Exception {
		if (client == null || lock == null) {
			throw new IllegalArgumentException("Client and lock must not be null (client=" + client + ", lock=" + lock
					+ ")");
		}
		if (lock.mode() == LockMode.READ) {
			throw new IllegalArgumentException("The READ lock on '" + lock.lockPath() + "' is shared, so it guards no "
					+ "write: take it in mode EXCLUSIVE or WRITE");
		}
		if (lock.state() == LockState.RELEASED) {
			throw released(lock);
		}
		return client.transactionOp().check().forPath(lock.nodePath());
	}

	/**
	 * Runs the operations in one ZooKeeper transaction, guarded by the lock: all of them apply,
	 * and only if the lock's node still exists when ZooKeeper applies the transaction, or none
	 * does. While it runs, a release of {@code lock} (from another thread, say) hands the node to
	 * no other holder of this process (local handoff), so the writes never apply under another
	 * holder's grant. Curator retries the transaction on connection loss as its retry policy says.
	 * @param client the lock's Curator client (or one with the same namespace)
	 * @param lock an {@link LockMode#EXCLUSIVE} or {@link LockMode#WRITE} lock
	 * @param operations the writes, from {@code client.transactionOp()}, at least one
	 * @return the operations' results, without the check's
	 * @throws LockLostException if the lock's node is gone: the lock was lost (its session
	 * expired, or its node was deleted) and nothing was written
	 * @throws IllegalArgumentException if an argument is {@code null}, no operation is given,
	 * or the lock is a shared {@link LockMode#READ} lock
	 * @throws IllegalStateException if the handle was released
	 * @throws KeeperException if one of the operations failed (such as a version mismatch);
	 * nothing was written
	 * @throws Exception if Curator or ZooKeeper fails otherwise
	 */
	public static List<CuratorTransactionResult> commit(CuratorFramework client, LockHandle lock,
			CuratorOp... operations) throws Exception {
		if (operations == null || operations.length == 0) {
			throw new IllegalArgumentException("A guarded transaction needs at least one operation, such as "
					+ "client.transactionOp().setData().forPath(path, data)");
		}
		List<CuratorOp> all = new ArrayList<>(operations.length + 1);
		all.add(lockCheck(client, lock));
		for (CuratorOp operation : operations) {
			if (operation == null) {
				throw new IllegalArgumentException("Operations of a guarded transaction must not be null");
			}
			all.add(operation);
		}
		// with local handoff the node passes to the next holder of this process unchanged: keep it
		// from passing on until the transaction has returned
		Runnable unpin = GuardedWrites.pin(lock);
		if (unpin == null) {
			throw released(lock);
		}
		try {
			List<CuratorTransactionResult> results = client.transaction().forOperations(all);
			return List.copyOf(results.subList(1, results.size()));
		}
		catch (KeeperException ex) {
			if (checkFailed(ex)) {
				throw new LockLostException(lock.lockPath(), lock.fencingToken(), LockState.LOST,
						"The guarded write under '" + lock.lockPath() + "' was refused: its lock node "
								+ lock.nodePath() + " (fencing token " + lock.fencingToken()
								+ ") no longer exists, so the lock was lost and nothing was written");
			}
			throw ex;
		}
		finally {
			unpin.run();
		}
	}

	private static IllegalStateException released(LockHandle lock) {
		return new IllegalStateException("The lock on '" + lock.lockPath() + "' (fencing token " + lock.fencingToken()
				+ ") was released: acquire it again before writing");
	}

	/** Whether the transaction failed at its first operation, the lock check, for want of the node. */
	private static boolean checkFailed(KeeperException ex) {
		List<OpResult> results = ex.getResults();
		if (results != null && !results.isEmpty() && results.get(0) instanceof OpResult.ErrorResult error) {
			return error.getErr() == KeeperException.Code.NONODE.intValue();
		}
		return false;
	}

}
