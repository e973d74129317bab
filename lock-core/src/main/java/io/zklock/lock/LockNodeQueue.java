package io.zklock.lock;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * The ZooKeeper side of one acquire: the lock recipe from the ZooKeeper documentation
 * ("Recipes and Solutions: Locks", and its shared-lock variant), as Curator's
 * {@code LockInternals} runs it, with the ownership check and fencing token added.
 *
 * <ol>
 * <li>create one protected {@code EPHEMERAL_SEQUENTIAL} node under CONTAINER parents,
 * keeping the create's {@link Stat} (its {@code czxid} is the fencing token);</li>
 * <li>check the node's {@code ephemeralOwner} against the current session id;</li>
 * <li>{@code getChildren} without a watch; if nothing blocks us, we hold the lock;</li>
 * <li>otherwise watch only the blocking node (immediate predecessor, or for a reader the last
 * smaller node that excludes readers) with {@code getData}, wait, and go back to 3.</li>
 * </ol>
 * A waiter that gives up (deadline, interrupt, error) deletes its node and removes its watch.
 */
final class LockNodeQueue {

	/** ZooKeeper calls of an acquire may run this long even when its wait is shorter. */
	private static final Duration MIN_CALL_TIME = Duration.ofSeconds(1);

	private final CuratorFramework client;

	private final byte[] nodeData;

	/** Pending predecessor watches of this queue's waiters, by path; see {@link PredecessorWatch}. */
	private final ConcurrentMap<String, Integer> watchersByPath = new ConcurrentHashMap<>();

	LockNodeQueue(CuratorFramework client, byte[] nodeData) {
		this.client = client;
		this.nodeData = nodeData.clone();
	}

	/**
	 * Queues for the lock at {@code basePath}.
	 * @return the held node, or {@code null} if the deadline passed first, also during a
	 * ZooKeeper call (nothing is left behind)
	 * @throws Exception on interrupt or a ZooKeeper failure (nothing is left behind)
	 */
	HeldNode acquire(String basePath, LockMode mode, Deadline deadline) throws Exception {
		PredecessorWatch watch = new PredecessorWatch(this.client, this.watchersByPath);
		CallDeadline.Alarm alarm = CallDeadline.arm(deadline.atLeast(MIN_CALL_TIME));
		HeldNode ours = null;
		boolean held = false;
		try {
			while (true) {
				if (ours == null) {
					ours = createNode(basePath, mode);
					if (ours == null) {
						// no node of the current session yet: try again while the wait lasts
						if (deadline.hasPassed()) {
							return null;
						}
						continue;
					}
				}
				List<String> children = this.client.getChildren().forPath(basePath);
				List<LockNodeName> queue = LockNodeName.sortedLockNodes(children);
				int index = LockNodeName.indexOf(queue, ZKPaths.getNodeFromPath(ours.nodePath()));
				if (index < 0 || currentSessionId() != ours.sessionId()) {
					// our node died with an expired session (a lagging follower may still list it):
					// queue again at the back with a node of the current session
					deleteQuietly(ours.nodePath());
					ours = null;
				}
				else {
					LockNodeName blocker = LockNodeName.blocker(queue, index);
					if (blocker == null) {
						held = true;
						return ours;
					}
					long remaining = deadline.remainingNanos();
					if (remaining <= 0) {
						return null;
					}
					String blockerPath = ZKPaths.makePath(basePath, blocker.name());
					if (watch.watch(blockerPath) && !watch.await(deadline.remainingNanos())) {
						return null;
					}
				}
				if (deadline.hasPassed()) {
					return null;
				}
			}
		}
		catch (Exception ex) {
			if (alarm.silence()) {
				// the deadline passed during a ZooKeeper call: a timeout, not a failure
				return null;
			}
			throw ex;
		}
		finally {
			alarm.silence();
			watch.removeRemaining();
			if (!held && ours != null) {
				deleteQuietly(ours.nodePath());
			}
		}
	}

	/**
	 * Creates our node, or returns {@code null} to try again: when the node does not belong
	 * to the current session, or when the server reaped the empty container parent between
	 * Curator's check that it exists and the create (the create then fails with NoNode).
	 */
	private HeldNode createNode(String basePath, LockMode mode) throws Exception {
		Stat stat = new Stat();
		String path;
		try {
			path = this.client.create()
				.storingStatIn(stat)
				.creatingParentContainersIfNeeded()
				.withProtection()
				.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
				.forPath(ZKPaths.makePath(basePath, mode.nodeMarker()), this.nodeData);
		}
		catch (KeeperException.NoNodeException ex) {
			return null;
		}
		if (stat.getCzxid() == 0) {
			// protected-mode recovery adopted a node whose create reply was lost: no Stat was filled
			Stat found = this.client.checkExists().forPath(path);
			if (found == null) {
				return null;
			}
			stat = found;
		}
		long sessionId = currentSessionId();
		if (stat.getEphemeralOwner() != sessionId) {
			deleteQuietly(path);
			return null;
		}
		return new HeldNode(path, stat.getCzxid(), sessionId);
	}

	private long currentSessionId() throws Exception {
		return this.client.getZookeeperClient().getZooKeeper().getSessionId();
	}

	/**
	 * Deletes a lock node with Curator's guaranteed delete.
	 * @return what happened to the node
	 */
	ReleaseResult delete(String nodePath) {
		return delete(this.client, nodePath);
	}

	/**
	 * Deletes a node with Curator's guaranteed delete, also from an interrupted thread.
	 * @return {@link ReleaseResult#RELEASED}, {@link ReleaseResult#LOST} if the node was
	 * already gone, or {@link ReleaseResult#CLEANUP_PENDING} if Curator retries in the
	 * background
	 */
	static ReleaseResult delete(CuratorFramework client, String nodePath) {
		boolean interrupted = Thread.interrupted();
		try {
			client.delete().guaranteed().forPath(nodePath);
			return ReleaseResult.RELEASED;
		}
		catch (KeeperException.NoNodeException ex) {
			return ReleaseResult.LOST;
		}
		catch (Exception ex) {
			return ReleaseResult.CLEANUP_PENDING;
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/** Deletes an abandoned node: in the background when disconnected, so giving up never blocks. */
	private void deleteQuietly(String nodePath) {
		if (this.client.getZookeeperClient().isConnected()) {
			delete(nodePath);
			return;
		}
		try {
			this.client.delete().guaranteed().inBackground().forPath(nodePath);
		}
		catch (Exception ex) {
			// Curator's guaranteed delete keeps retrying; the node also dies with the session
		}
	}

	/** A lock node this process created and holds: its full path, fencing token and session. */
	record HeldNode(String nodePath, long fencingToken, long sessionId) {
	}

}
