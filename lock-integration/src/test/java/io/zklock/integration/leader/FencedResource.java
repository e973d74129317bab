package io.zklock.integration.leader;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * What leaders write to: refuses a write whose fencing token is smaller than the newest it has
 * accepted (Kleppmann's fenced storage). Unfenced writes (token {@code -1}, Spring
 * Integration's own registry has no token) are accepted and counted per writer.
 */
final class FencedResource {

	private long newestToken;

	private String newestWriter = "";

	private final AtomicInteger refused = new AtomicInteger();

	/** @return whether the write was accepted */
	synchronized boolean write(String writer, long token) {
		if (token < 0) {
			this.newestWriter = writer;
			return true;
		}
		if (token < this.newestToken) {
			this.refused.incrementAndGet();
			return false;
		}
		this.newestToken = token;
		this.newestWriter = writer;
		return true;
	}

	int refused() {
		return this.refused.get();
	}

	synchronized long newestToken() {
		return this.newestToken;
	}

	synchronized String newestWriter() {
		return this.newestWriter;
	}

}
