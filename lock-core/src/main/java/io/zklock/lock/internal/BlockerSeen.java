package io.zklock.lock.internal;

import java.time.Instant;

import io.zklock.internal.LockNodeData;
import org.jspecify.annotations.Nullable;

/**
 * The lock node a waiter of this engine last waited for on a lock path, as the read right behind
 * its watch saw it: its name, what its data says of its holder, when it was created, and how many
 * lock nodes stood before the waiter. For the message of a wait that runs out: it names the holder
 * of another process, which this process cannot ask.
 *
 * @param nodeName the blocking lock node's name
 * @param data its data ({@link LockNodeData}), or {@code null}
 * @param createdAt when the server created it
 * @param nodesBefore how many lock nodes stood before the waiter's own
 * @param firstNode the first lock node of the queue then (the holder, or one of the holders)
 * @param seenAt when the waiter saw it
 */
record BlockerSeen(String nodeName, byte @Nullable [] data, Instant createdAt, int nodesBefore, String firstNode,
		Instant seenAt) {

	/**
	 * What the waiter saw, in words: {@code "lock node _c_…-lock-0000000041 (the holder's), which
	 * belongs to host web-2, process 4711, application 'billing' (created …, as a waiter of this
	 * process last saw it at …)"}.
	 */
	String describe() {
		StringBuilder text = new StringBuilder("lock node ").append(this.nodeName)
			.append((this.nodesBefore <= 1) ? " (the holder's)" : "")
			.append(", which belongs to ")
			.append(LockNodeData.describe(this.data))
			.append(" (created ")
			.append(this.createdAt)
			.append(", as a waiter of this process last saw it at ")
			.append(this.seenAt)
			.append(")");
		if (this.nodesBefore > 1) {
			text.append("; ").append(this.nodesBefore).append(" lock nodes stood before the waiter's own, the first ")
				.append(this.firstNode);
		}
		return text.toString();
	}

}
