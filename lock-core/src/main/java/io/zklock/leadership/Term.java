package io.zklock.leadership;

import java.time.Instant;
import java.util.Optional;

import io.zklock.lock.LockHandle;

/**
 * One term of this process as leader of a role: the hold of the role's lock node, from its grant
 * until it is yielded, given up or lost. Its fencing token is the hold's, so a store that refuses
 * older tokens refuses a stale leader's writes (docs/leadership-protocol.md).
 *
 * <pre class="code">
 * Term term = candidacy.awaitTerm(Duration.ofSeconds(30)).orElseThrow();
 * while (term.isActive()) {
 *     fencing.advance(term.lock());   // JdbcFencingTokens: refuses a token older than the newest it saw
 *     … one unit of leader-only work …
 * }
 * </pre>
 *
 * A term that is revoked for a reason in jeopardy ({@link RevocationReason#isJeopardy()}) may
 * become active again: it is then the same term, with the same fencing token, and the listeners
 * hear {@link LeadershipListener#onGranted(Term)} again. Any other revocation ends it
 * ({@link #isEnded()}); a later grant is a new term with a larger token.
 *
 * <p>
 * Implementations are thread-safe; zklock's read no ZooKeeper state on any method (they never
 * block).
 */
public interface Term {

	/**
	 * The role this is a term of.
	 * @return the role, such as {@code "billing-close"}
	 */
	String role();

	/**
	 * The term's fencing token: the fencing token of its hold (a ZooKeeper transaction id), unique
	 * across the ensemble, larger than every earlier term's of the role, and in real-time order with
	 * every lock's and term's token (see {@link LockHandle#fencingToken()}).
	 * @return the token, positive
	 */
	long fencingToken();

	/**
	 * When this process was granted the term (a resumption keeps it).
	 * @return the instant of the grant, by this process's clock
	 */
	Instant since();

	/**
	 * Whether this process may act as leader now: the term was granted and not revoked, the
	 * client is connected, its lock node is confirmed to be the session's, and the election's local
	 * lease has not run out (docs/leadership-protocol.md, "The lease"). Computed from those sources
	 * on each call, never from a past event, and cheap: check it before each unit of leader-only
	 * work. It turns {@code false} before any listener hears of the revocation, and at the first
	 * call after a process resumes from a freeze longer than the lease.
	 * @return {@code true} while this term is active
	 */
	boolean isActive();

	/**
	 * Whether the term is over for good: yielded, given up, or lost with its session or node. An
	 * ended term never becomes active again.
	 * @return {@code true} once ended
	 */
	boolean isEnded();

	/**
	 * Why the term is not active.
	 * @return empty while active (and before its first activation); the reason in jeopardy while
	 * revoked and waiting to resume; the reason it ended once ended
	 */
	Optional<RevocationReason> revocationReason();

	/**
	 * The term's hold as a {@link LockHandle}, for what takes a lock: {@code JdbcFencingTokens.advance}
	 * (the resource is named by the role, {@link LockHandle#lockPath()}) and
	 * {@code GuardedTransaction.commit(client, term.lock(), …)} (writes that apply only while the
	 * term's node exists; the client must be the election's). {@link LockHandle#isHeld()} is
	 * {@link #isActive()}; {@link LockHandle#state()} is {@code HELD} while active, {@code IN_DOUBT}
	 * in jeopardy, {@code LOST} once lost and {@code RELEASED} once yielded or left;
	 * {@link LockHandle#onLost} listeners run on the candidacy's listener executor each time the term
	 * stops being active. It cannot be released: {@link LockHandle#release()} (and {@code close()})
	 * throw {@link UnsupportedOperationException}; end the term through its {@link Candidacy}.
	 * @return the view, the same object on each call
	 */
	LockHandle lock();

}
