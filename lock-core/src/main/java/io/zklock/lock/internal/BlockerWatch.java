package io.zklock.lock.internal;

import java.util.function.Consumer;

import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher.Event.EventType;

/**
 * The watch one round of an acquire sets on the node it waits for, and what its events mean: a
 * one-shot data watch ({@link PredecessorWatch}) on a reader, whose release is a plain delete; a
 * persistent watch ({@link HandoffWatch}) on an exclusive node, whose release after holding
 * proves itself (docs/lock-protocol.md, "Handoff without a listing"). Events reach the round
 * through {@code whileCurrent}, under its attempt's lock and only while the round is current, and
 * only those of the watch it waits on now (docs/lock-protocol.md, "Watching the same node again").
 * Thread-safe.
 */
final class BlockerWatch {

	/** What a round does when its blocker is gone. */
	@FunctionalInterface
	interface Gone {

		/**
		 * The blocker at {@code path} was deleted at {@code zxid} (none: {@code 0} or less);
		 * {@code released}: in a release after holding.
		 */
		void blockerGone(String path, long zxid, boolean released);

	}

	private final PredecessorWatch data;

	private final HandoffWatch handoff;

	private final Consumer<Runnable> whileCurrent;

	private final Gone gone;

	private final Runnable lookAgain;

	/**
	 * @param queue the client the watches are set with
	 * @param whileCurrent runs a step under the attempt's lock if the round is still current
	 * @param gone what the round does when its blocker is gone
	 * @param lookAgain what the round does when a watch event says nothing certain (a data change
	 * consumed a one-shot watch, or something else removed the watch): list the lock path again
	 */
	BlockerWatch(QueueClient queue, Consumer<Runnable> whileCurrent, Gone gone, Runnable lookAgain) {
		this.whileCurrent = whileCurrent;
		this.gone = gone;
		this.lookAgain = lookAgain;
		this.data = new PredecessorWatch(queue.client(), queue::watchEvent, this::onDataEvent);
		this.handoff = new HandoffWatch(queue.client(), queue::watchEvent, new HandoffWatch.Outcome() {

			@Override
			public void blockerGone(String path, long zxid, boolean released) {
				whileCurrent.accept(() -> gone.blockerGone(path, zxid, released));
			}

			@Override
			public void watchRemoved(String path) {
				whileCurrent.accept(lookAgain);
			}

		});
	}

	/**
	 * Watches the blocker at {@code path}; {@code reply} gets the reply of the read that says
	 * whether it still existed (NoNode: call {@link #missed()}; no event will come), with its
	 * data and Stat.
	 * @param exclusive whether the blocker is an exclusive node ({@code EXCLUSIVE}, {@code WRITE}
	 * or Curator's {@code -lock-})
	 */
	void watch(String path, boolean exclusive, RawWatches.Read reply) {
		if (exclusive) {
			this.handoff.watch(path, reply);
		}
		else {
			this.data.watch(path, reply);
		}
	}

	/**
	 * The blocker was gone when its watch was set: a persistent watch outlives its node, so it is
	 * taken off (a data watch on a missing node was never left).
	 */
	void missed() {
		this.handoff.removeRemaining();
	}

	/** Takes off the watches that may still be on the server, in the background. */
	void removeRemaining() {
		this.data.removeRemaining();
		this.handoff.removeRemaining();
	}

	private void onDataEvent(WatchedEvent event) {
		// an event of the data watch the round waits on now (never one taken off or replaced)
		this.whileCurrent.accept(() -> {
			if (event.getType() == EventType.NodeDeleted && event.getPath() != null) {
				this.gone.blockerGone(event.getPath(), event.getZxid(), false);
			}
			else {
				// a data change (say Curator's revocation request, or a reader's write for its
				// token) consumed the watch, or something else removed it: look again
				this.lookAgain.run();
			}
		});
	}

}
