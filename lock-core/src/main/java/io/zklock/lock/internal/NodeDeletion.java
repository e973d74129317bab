package io.zklock.lock.internal;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.zklock.lock.ReleaseResult;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.jspecify.annotations.Nullable;

/**
 * Deletes lock and lease nodes with Curator's guaranteed delete, in the background: when
 * retries run out, Curator's failed-delete manager keeps trying while the client runs, and the
 * node dies with its session anyway. A caller waits for the reply only while connected, and
 * stops waiting as soon as the connection is suspended or lost, so a release never blocks the
 * business thread on an unreachable ensemble. A platform thread sends the write itself, as a
 * synchronous call ({@link #onCaller}).
 */
final class NodeDeletion {

	private NodeDeletion() {
	}

	/**
	 * Deletes a released node and waits for the reply while connected.
	 * @return {@link ReleaseResult#RELEASED}, {@link ReleaseResult#LOST} if the node was
	 * already gone, or {@link ReleaseResult#CLEANUP_PENDING} if the delete goes on in the
	 * background
	 */
	static ReleaseResult delete(CuratorFramework client, SessionGuard guard, String nodePath) {
		if (!guard.isConnected()) {
			deleteInBackground(client, nodePath, null);
			return ReleaseResult.CLEANUP_PENDING;
		}
		if (CallerThread.mayWaitForReplies()) {
			return onCaller(client, nodePath, (zooKeeper, path) -> zooKeeper.delete(path, -1));
		}
		CompletableFuture<ReleaseResult> reply = new CompletableFuture<>();
		try {
			client.delete().guaranteed().inBackground((c, event) -> reply.complete(resultOf(event.getResultCode())))
				.forPath(nodePath);
		}
		catch (Exception ex) {
			return ReleaseResult.CLEANUP_PENDING;
		}
		ReleaseResult result = awaitWhileConnected(reply, guard,
				Duration.ofMillis(client.getZookeeperClient().getConnectionTimeoutMs()), ReleaseResult.CLEANUP_PENDING);
		return (result != null) ? result : ReleaseResult.CLEANUP_PENDING;
	}

	/**
	 * Sends a released node's write as a synchronous call on the client's current ZooKeeper handle,
	 * whose reply the client's I/O thread hands straight to the calling (platform) thread; the
	 * client fails it with CONNECTIONLOSS the moment its connection drops (docs/lock-protocol.md,
	 * "Who waits for a reply").
	 * @param write the write, given the handle and the node's path in the client's namespace
	 * @return {@link ReleaseResult#RELEASED}, {@link ReleaseResult#LOST} on NoNode, or
	 * {@link ReleaseResult#CLEANUP_PENDING} once any other outcome, an interrupt (whose flag is
	 * set again) included, handed the node to Curator's guaranteed delete
	 */
	static ReleaseResult onCaller(CuratorFramework client, String nodePath, Write write) {
		try {
			write.send(client.getZookeeperClient().getZooKeeper(),
					ZKPaths.fixForNamespace(client.getNamespace(), nodePath));
			return ReleaseResult.RELEASED;
		}
		catch (KeeperException.NoNodeException ex) {
			return ReleaseResult.LOST;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (Exception ex) {
			// the connection's sake, or the client is closing: the guaranteed delete takes over below
		}
		deleteInBackground(client, nodePath, null);
		return ReleaseResult.CLEANUP_PENDING;
	}

	/** A release's write on a ZooKeeper handle. */
	@FunctionalInterface
	interface Write {

		void send(ZooKeeper zooKeeper, String path) throws Exception;

	}

	/**
	 * Deletes a node in the background, never blocking.
	 * @param deleted completed when the reply arrives, or at once if the client is closing;
	 * {@code null} for none
	 */
	static void deleteInBackground(CuratorFramework client, String nodePath,
			@Nullable CompletableFuture<@Nullable Void> deleted) {
		try {
			client.delete().guaranteed().inBackground((c, event) -> {
				if (deleted != null) {
					deleted.complete(null);
				}
			}).forPath(nodePath);
		}
		catch (Exception ex) {
			// the client is closing: the node dies with the session
			if (deleted != null) {
				deleted.complete(null);
			}
		}
	}

	/**
	 * Waits for {@code reply} while the client is connected, at most {@code bound}, also from an
	 * interrupted thread (whose flag is set again).
	 * @return the reply, or {@code otherwise} if the connection went or the bound passed first
	 */
	static <T> @Nullable T awaitWhileConnected(CompletableFuture<T> reply, SessionGuard guard, Duration bound,
			@Nullable T otherwise) {
		if (reply.isDone() || !guard.isConnected()) {
			return reply.getNow(otherwise);
		}
		CompletableFuture<@Nullable T> answer = new CompletableFuture<>();
		reply.whenComplete((value, error) -> answer.complete((error == null) ? value : otherwise));
		Runnable unsubscribe = guard.subscribe((signal) -> {
			if (signal != ConnectionSignal.RECONNECTED) {
				answer.complete(otherwise);
			}
		});
		if (!guard.isConnected()) {
			answer.complete(otherwise);
		}
		boolean interrupted = Thread.interrupted();
		long deadline = System.nanoTime() + bound.toNanos();
		try {
			while (true) {
				try {
					return answer.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
				}
				catch (InterruptedException ex) {
					interrupted = true;
				}
				catch (TimeoutException | ExecutionException ex) {
					return otherwise;
				}
			}
		}
		finally {
			unsubscribe.run();
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/** What a delete's result code says of the release. */
	static ReleaseResult resultOf(int resultCode) {
		if (resultCode == KeeperException.Code.OK.intValue()) {
			return ReleaseResult.RELEASED;
		}
		if (resultCode == KeeperException.Code.NONODE.intValue()) {
			return ReleaseResult.LOST;
		}
		return ReleaseResult.CLEANUP_PENDING;
	}

}
