package io.zklock.lock.internal;

import java.util.List;
import java.util.function.LongConsumer;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.curator.framework.api.transaction.OperationType;
import org.apache.zookeeper.data.Stat;

/**
 * The one ZooKeeper write of a local handoff (see {@link LocalChain}):
 * {@code multi(check(lock node), setData(lock path))}, sent with Curator's background API. Its
 * success proves the lock node still existed at the transaction's zxid (so it is still this
 * session's, and still holds), and that zxid, the lock path's new {@code mzxid}, is fresh: the
 * next holder's fencing token. The write goes to the lock path, whose data nobody watches, so the
 * remote waiter watching the lock node is not woken. See docs/lock-protocol.md, "Local handoff".
 */
final class HandoffWrite {

	private static final byte[] NO_DATA = new byte[0];

	private HandoffWrite() {
	}

	/**
	 * Sends the write; exactly one of the two callbacks runs, on Curator's event thread (or on the
	 * caller's, if the request cannot even be sent).
	 * @param basePath the lock path's ZooKeeper path
	 * @param nodePath the held lock node
	 * @param onToken receives the new fencing token
	 * @param onFailure runs if the transaction failed: the node is gone, the session ended, the
	 * connection failed past Curator's retries, or the write was refused
	 */
	static void send(CuratorFramework client, String basePath, String nodePath, LongConsumer onToken,
			Runnable onFailure) {
		try {
			client.transaction()
				.inBackground((c, event) -> reply(event, onToken, onFailure))
				.forOperations(List.of(client.transactionOp().check().forPath(nodePath),
						client.transactionOp().setData().forPath(basePath, NO_DATA)));
		}
		catch (Exception ex) {
			// the client is closing
			onFailure.run();
		}
	}

	private static void reply(CuratorEvent event, LongConsumer onToken, Runnable onFailure) {
		long token = LockNodeCalls.isOk(event) ? tokenOf(event.getOpResults()) : 0;
		if (token != 0) {
			onToken.accept(token);
		}
		else {
			onFailure.run();
		}
	}

	private static long tokenOf(List<CuratorTransactionResult> results) {
		if (results == null) {
			return 0;
		}
		for (CuratorTransactionResult result : results) {
			Stat stat = result.getResultStat();
			if (result.getType() == OperationType.SET_DATA && stat != null) {
				return stat.getMzxid();
			}
		}
		return 0;
	}

}
