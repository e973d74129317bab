package io.zklock.lock.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.zklock.lock.ReleaseResult;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.Op;

/**
 * The release of an exclusive ({@code EXCLUSIVE} or {@code WRITE}) lock node after holding:
 * {@code multi(setData(node), delete(node))}, one write like a plain delete, whose two watch
 * events at one zxid tell a waiter with a persistent watch on the node that the node was released
 * after holding, so that it holds the lock without listing ({@link HandoffWatch};
 * docs/lock-protocol.md, "Handoff without a listing"). Only a node that was granted is released
 * this way; every other node goes with a plain delete ({@link NodeDeletion}). Like a plain
 * release, it waits for the reply only while connected, on a platform thread in a synchronous
 * call ({@link NodeDeletion#onCaller}); a transaction that fails for the connection's sake hands
 * the node to Curator's guaranteed delete.
 */
final class HandoffRelease {

	/** The data the release writes; nothing reads it: the data change is the message. */
	private static final byte[] RELEASED = "zklock:released".getBytes(StandardCharsets.UTF_8);

	private HandoffRelease() {
	}

	/**
	 * Releases a granted exclusive node and waits for the reply while connected.
	 * @return {@link ReleaseResult#RELEASED}, {@link ReleaseResult#LOST} if the node was
	 * already gone, or {@link ReleaseResult#CLEANUP_PENDING} if the delete goes on in the
	 * background
	 */
	static ReleaseResult release(CuratorFramework client, SessionGuard guard, String nodePath) {
		if (!guard.isConnected()) {
			return NodeDeletion.delete(client, guard, nodePath);
		}
		if (CallerThread.mayWaitForReplies()) {
			return NodeDeletion.onCaller(client, nodePath, (zooKeeper, path) -> zooKeeper
				.multi(List.of(Op.setData(path, RELEASED, -1), Op.delete(path, -1))));
		}
		CompletableFuture<ReleaseResult> reply = new CompletableFuture<>();
		try {
			client.transaction()
				.inBackground((c, event) -> reply.complete(NodeDeletion.resultOf(event.getResultCode())))
				.forOperations(client.transactionOp().setData().forPath(nodePath, RELEASED),
						client.transactionOp().delete().forPath(nodePath));
		}
		catch (Exception ex) {
			return NodeDeletion.delete(client, guard, nodePath);
		}
		ReleaseResult result = NodeDeletion.awaitWhileConnected(reply, guard,
				Duration.ofMillis(client.getZookeeperClient().getConnectionTimeoutMs()), null);
		if (result == null || result == ReleaseResult.CLEANUP_PENDING) {
			// no answer while connected: the guaranteed delete takes over (NoNode if the transaction was applied)
			NodeDeletion.deleteInBackground(client, nodePath, null);
			return ReleaseResult.CLEANUP_PENDING;
		}
		return result;
	}

}
