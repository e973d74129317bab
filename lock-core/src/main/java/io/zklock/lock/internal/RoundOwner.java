package io.zklock.lock.internal;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;

/**
 * What a round of an acquire ({@link AcquireRound}) needs of the attempt that starts it
 * ({@link AcquireAttempt}): the attempt's lock, its deadline, and the moves that end a round or
 * the attempt. Every method but {@link #locked(Runnable)} is called with that lock held.
 *
 * @param <R> the type of the rounds, so that this interface depends on no round
 */
interface RoundOwner<R> {

	/** Runs {@code step} under the attempt's lock. */
	void locked(Runnable step);

	/** Sends a background request; a request that cannot even be sent ends the attempt. */
	void send(Request request);

	/** Whether {@code candidate} is the attempt's current round and the attempt goes on. */
	boolean isCurrent(R candidate);

	/** Whether a round's watch events still matter: it is current, or the attempt ended with it. */
	boolean isCurrentOrEnded(R candidate);

	/** Whether the attempt's deadline has passed. */
	boolean isPastDeadline();

	/** Starts a new round: a new lock node at the back of the queue, sent once connected. */
	void newRound();

	/** A reply failed for the connection's sake: look again once connected. */
	void lookAgainWhenConnected();

	/**
	 * The current round looked at a listing taken after its create's reply, which showed every
	 * other node of its own create ({@code duplicates}, their paths; Curator's protected mode can
	 * leave them, see {@link ProtectedNodes}): they go now, and giving up need not look for them.
	 */
	void looked(List<String> duplicates);

	/** A create whose reply came after the attempt ended or moved on: its node goes. */
	void createdTooLate(@Nullable String nodePath);

	/** The current round's node holds the lock. */
	void grant();

	/** Ends the attempt without a grant: given up ({@code error == null}) or failed. */
	void end(@Nullable Exception error);

	/**
	 * Routes the result code of a reply about {@code path}: NoNode to {@code onNoNode}; a
	 * connection problem to looking again once connected; any other failure ends the attempt;
	 * success to {@code onOk}.
	 */
	default void route(int resultCode, @Nullable String path, Runnable onNoNode, Runnable onOk) {
		KeeperException.Code code = KeeperException.Code.get(resultCode);
		if (code == KeeperException.Code.NONODE) {
			onNoNode.run();
		}
		else if (LockNodeCalls.isConnectionProblem(code)) {
			lookAgainWhenConnected();
		}
		else if (code != KeeperException.Code.OK) {
			end(KeeperException.create(code, path));
		}
		else {
			onOk.run();
		}
	}

	/** A reply handler that runs {@code step} under the attempt's lock, while {@code round} is current. */
	default BackgroundCallback ifCurrent(R round, Consumer<CuratorEvent> step) {
		return (client, event) -> ifCurrentRun(round, () -> step.accept(event));
	}

	/** A handler of a reply's result code that runs {@code step} under the lock, while {@code round} is current. */
	default IntConsumer ifCurrentCode(R round, IntConsumer step) {
		return (resultCode) -> ifCurrentRun(round, () -> step.accept(resultCode));
	}

	private void ifCurrentRun(R round, Runnable step) {
		locked(() -> {
			if (isCurrent(round)) {
				step.run();
			}
		});
	}

	/** A background call that may fail while being sent (the client is closing). */
	@FunctionalInterface
	interface Request {

		void send() throws Exception;

	}

}
