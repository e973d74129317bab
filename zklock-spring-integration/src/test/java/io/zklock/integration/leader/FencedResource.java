package io.zklock.integration.leader;

import java.util.ArrayList;
import java.util.List;

/**
 * What leaders write to: refuses a write whose fencing token is smaller than the newest it has
 * accepted (Kleppmann's fenced storage). Unfenced writes (token {@code -1}, Spring
 * Integration's own registry has no token) are accepted. Keeps every write, so a run can count
 * the stale leader's writes that came after another leader had written. Thread-safe.
 */
final class FencedResource {

	/** One write as the resource saw it ({@link System#nanoTime()} on receipt). */
	record Write(long at, String writer, long token, boolean accepted) {
	}

	private long newestToken;

	private String newestWriter = "";

	private final List<Write> writes = new ArrayList<>();

	/** @return whether the write was accepted */
	synchronized boolean write(String writer, long token) {
		boolean accepted = token < 0 || token >= this.newestToken;
		if (accepted) {
			this.newestToken = Math.max(this.newestToken, token);
			this.newestWriter = writer;
		}
		this.writes.add(new Write(System.nanoTime(), writer, token, accepted));
		return accepted;
	}

	/** Every write refused (a stale token). */
	synchronized int refused() {
		return (int) this.writes.stream().filter((write) -> !write.accepted()).count();
	}

	/**
	 * The writes of {@code stale} after the first accepted write of another writer since
	 * {@code since}: the old leader's writes over the new leader's data.
	 * @return [accepted, refused]
	 */
	synchronized int[] staleWritesAfterOthers(String stale, long since) {
		long othersFirst = this.writes.stream()
			.filter((write) -> write.at() >= since && write.accepted() && !write.writer().equals(stale))
			.mapToLong(Write::at)
			.findFirst()
			.orElse(Long.MAX_VALUE);
		int accepted = 0;
		int refused = 0;
		for (Write write : this.writes) {
			if (write.at() > othersFirst && write.writer().equals(stale)) {
				if (write.accepted()) {
					accepted++;
				}
				else {
					refused++;
				}
			}
		}
		return new int[] { accepted, refused };
	}

	synchronized List<Write> writes() {
		return new ArrayList<>(this.writes);
	}

	synchronized long newestToken() {
		return this.newestToken;
	}

	synchronized String newestWriter() {
		return this.newestWriter;
	}

}
