package io.zklock.test.history;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@link HistoryChecker#checkTerms(List)} found in a leadership history: figures, and the
 * violations of "one fenced writer per term".
 *
 * @param terms the terms granted (a term resumed after jeopardy counts once)
 * @param resumptions grants of a term that had been granted before (resumed after jeopardy)
 * @param acceptedWrites writes a fenced store accepted with a term's token
 * @param refusedWrites writes a fenced store refused with a term's token (stale leaders stopped by
 * fencing)
 * @param acceptedAfterRevocation accepted writes of a term after its holder heard it revoked: work
 * of a stale leader that fencing did not have to refuse, since no later term had written yet (not a
 * violation: the window jeopardy and the lease shorten)
 * @param violations broken properties in words: a term token shared by two terms or with a lock
 * grant, an accepted write with no term's token or before its term, writes of two terms interleaved
 * at a store
 */
public record TermCheckResult(int terms, int resumptions, int acceptedWrites, int refusedWrites,
		int acceptedAfterRevocation, List<String> violations) {

	/**
	 * Creates a result; the list is copied.
	 * @param terms terms granted
	 * @param resumptions grants of a term granted before
	 * @param acceptedWrites writes accepted with a term's token
	 * @param refusedWrites writes refused with a term's token
	 * @param acceptedAfterRevocation accepted writes of a term after its revocation
	 * @param violations broken properties
	 */
	public TermCheckResult {
		violations = List.copyOf(violations);
	}

	/**
	 * Whether every term had one fenced writer.
	 * @return {@code true} if {@link #violations()} is empty
	 */
	public boolean isSafe() {
		return this.violations.isEmpty();
	}

	/**
	 * Asserts one fenced writer per term.
	 * @return this result
	 * @throws AssertionError listing the violations
	 */
	public TermCheckResult assertOneFencedWriterPerTerm() {
		if (!this.violations.isEmpty()) {
			List<String> lines = new ArrayList<>(this.violations);
			throw new AssertionError("Leadership history of " + this.terms + " terms and " + this.acceptedWrites
					+ " accepted writes has more than one fenced writer per term:\n  - " + String.join("\n  - ", lines));
		}
		return this;
	}

}
