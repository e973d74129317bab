package io.zklock.annotation;

import java.util.Optional;

import io.zklock.annotation.support.LeaderContextHolder;
import io.zklock.leadership.Term;

/**
 * The term under which the current {@link LeaderOnly} method call runs, so the method can pass its
 * fencing token to the resource it writes and check the term before each write:
 *
 * <pre class="code">
 * &#064;LeaderOnly("billing-close")
 * public void closeTheDay() {
 *     Term term = LeaderContext.currentTerm().orElseThrow();
 *     for (String invoice : invoices()) {
 *         if (!term.isActive()) {
 *             return;                                  // revoked: the next leader carries on
 *         }
 *         ledger.close(invoice, term.fencingToken());  // a fenced store refuses an older term's token
 *     }
 * }
 * </pre>
 *
 * Bound to the thread that runs the method, for the duration of the call; nested calls stack, and
 * the innermost is current. A {@code Mono} or {@code Flux} method sees it while it builds its
 * publisher (read the term there and keep it), not on the threads its pipeline runs on. The term
 * is the one that was active when the call started; it may have ended since ({@link Term#isActive()}
 * tells).
 */
public final class LeaderContext {

	private LeaderContext() {
	}

	/**
	 * The term of the innermost {@link LeaderOnly} call running on this thread.
	 * @return the term, or empty outside such a call
	 */
	public static Optional<Term> currentTerm() {
		return Optional.ofNullable(LeaderContextHolder.current());
	}

	/**
	 * The fencing token of the term of the innermost {@link LeaderOnly} call running on this thread.
	 * @return the token
	 * @throws IllegalStateException outside such a call, saying so
	 */
	public static long currentToken() {
		return currentTerm().orElseThrow(() -> new IllegalStateException("No @LeaderOnly call is running on thread '"
				+ Thread.currentThread().getName() + "'; LeaderContext is only set inside a method annotated with "
				+ "@LeaderOnly while this instance leads its role (with zklock.enabled=false such methods run "
				+ "without a term)"))
			.fencingToken();
	}

}
