package io.zklock.test.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import io.zklock.leadership.LeadershipListener;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.event.LockListener;
import io.zklock.test.history.LockEvent.Type;

/**
 * The lock history of a test: every grant, release and loss of every holder, with its fencing
 * token, thread and monotonic time, for the {@link HistoryChecker} to judge.
 *
 * <pre class="code">
 * LockHistory history = new LockHistory();
 * locks.engine().addListener(history.listener("app-1"));   // or a LockListener bean in Spring
 * … run the test's work, on as many threads and instances as it likes …
 * history.check().assertSafe();   // fails naming the two holds that overlapped
 * </pre>
 *
 * Events come from four sources, which can be mixed: {@link #listener(String)} records what
 * a {@code LockEngine} reports (acquire start, grant, timeout or failure, release, loss);
 * {@link #leadershipListener(String)} the terms a {@code LeaderElection} grants and revokes;
 * {@link #enter(String, LockHandle)} records the guarded work itself, from the moment it
 * starts under a lock to the moment it ends; and {@link #record} / {@link #add} take events
 * from a harness of one's own (child processes, a fenced resource's decisions). Record one
 * source of grants per lock path and holder: the same grant recorded twice counts as a token
 * granted twice.
 *
 * <p>
 * Thread-safe.
 */
public class LockHistory {

	private final List<LockEvent> events = new ArrayList<>();

	/**
	 * A {@code LockListener} that records the events of one holder's lock engine into this
	 * history: {@link Type#ACQUIRING}, {@link Type#GRANTED}, {@link Type#FAILED} (timeouts
	 * included), {@link Type#RELEASING} (the lock node still exists), {@link Type#RELEASED} and
	 * {@link Type#LOST}. Reentrant acquires are not reported by zklock and so not recorded.
	 * @param holder the name of the holder in the history, such as {@code "app-1"}
	 * @return the listener; add it with {@code LockEngine.addListener}, or declare it as a bean
	 */
	public LockListener listener(String holder) {
		return new LockHistoryListener(this, requireHolder(holder));
	}

	/**
	 * A {@code LeadershipListener} that records one holder's terms into this history:
	 * {@link Type#TERM_GRANTED} at each grant (and resumption) and {@link Type#TERM_REVOKED} at each
	 * revocation, with the role as lock path and the term's fencing token; judge them, with the
	 * writes a fenced store accepted and refused ({@link #record}), by {@link #checkTerms()}.
	 * @param holder the name of the holder in the history, such as {@code "app-1"}
	 * @return the listener; register it with {@code LeaderElection.addListener} or
	 * {@code Candidacy.addListener}
	 */
	public LeadershipListener leadershipListener(String holder) {
		return new LeadershipHistoryListener(this, requireHolder(holder));
	}

	/**
	 * Records that guarded work starts under a lock: a {@link Type#GRANTED} event now, on the
	 * current thread, with the handle's lock path, mode and fencing token. Closing the
	 * returned section records {@link Type#RELEASING}: the work under the lock has ended.
	 * Use it where the work runs (inside an annotated method: {@code LockContext.currentLock()}),
	 * to check what the lock guards rather than when the lock was granted.
	 * @param holder the holder's name, such as {@code "app-1"}
	 * @param lock the lock the work runs under
	 * @return the section; close it (on any thread) when the work ends; closing twice records once
	 */
	public Section enter(String holder, LockHandle lock) {
		String name = requireHolder(holder);
		long token = lock.fencingToken();
		String lockPath = lock.lockPath();
		LockMode mode = lock.mode();
		record(name, Type.GRANTED, lockPath, mode, token, "");
		AtomicBoolean closed = new AtomicBoolean();
		return () -> {
			if (closed.compareAndSet(false, true)) {
				record(name, Type.RELEASING, lockPath, mode, token, "");
			}
		};
	}

	/**
	 * Records an event stamped now, on the current thread.
	 * @param holder the holder's name
	 * @param type what happened
	 * @param lockPath the lock path, such as {@code "orders/42"}
	 * @param mode the lock mode
	 * @param fencingToken the fencing token, {@code 0} if none applies
	 * @param detail extra words, or {@code ""}
	 * @return the event recorded
	 */
	public LockEvent record(String holder, Type type, String lockPath, LockMode mode, long fencingToken,
			String detail) {
		return add(new LockEvent(System.nanoTime(), holder, Thread.currentThread().getName(), type, lockPath, mode,
				fencingToken, detail));
	}

	/**
	 * Adds an event stamped elsewhere, such as by another process of the same machine.
	 * @param event the event
	 * @return the event
	 */
	public LockEvent add(LockEvent event) {
		if (event == null) {
			throw new IllegalArgumentException("Lock event must not be null");
		}
		synchronized (this.events) {
			this.events.add(event);
		}
		return event;
	}

	/**
	 * The events recorded so far, sorted by stamp.
	 * @return a snapshot
	 */
	public List<LockEvent> events() {
		List<LockEvent> copy;
		synchronized (this.events) {
			copy = new ArrayList<>(this.events);
		}
		copy.sort(Comparator.comparingLong(LockEvent::nanos));
		return copy;
	}

	/**
	 * Checks the history recorded so far.
	 * @return what the {@link HistoryChecker} found, over every lock path
	 */
	public CheckResult check() {
		return HistoryChecker.check(events());
	}

	/**
	 * Checks the terms and writes recorded so far against "one fenced writer per term".
	 * @return what {@link HistoryChecker#checkTerms(List)} found
	 */
	public TermCheckResult checkTerms() {
		return HistoryChecker.checkTerms(events());
	}

	/**
	 * Checks the history recorded so far and asserts mutual exclusion and fencing order.
	 * @return what the checker found
	 * @throws AssertionError naming the overlapping holds and the broken fencing properties
	 * @see CheckResult#assertSafe()
	 */
	public CheckResult assertSafe() {
		return check().assertSafe();
	}

	/**
	 * Forgets every event recorded so far, for example in {@code @BeforeEach}.
	 */
	public void clear() {
		synchronized (this.events) {
			this.events.clear();
		}
	}

	private static String requireHolder(String holder) {
		if (holder == null || holder.isBlank()) {
			throw new IllegalArgumentException("Holder name must not be null or blank, was '" + holder
					+ "'; name the application instance or process, such as \"app-1\"");
		}
		return holder;
	}

	/**
	 * Guarded work under a lock, from {@link LockHistory#enter}: closing it records that the
	 * work ended.
	 */
	@FunctionalInterface
	public interface Section extends AutoCloseable {

		/** Records {@link Type#RELEASING} for the section's lock, once. */
		@Override
		void close();

	}

}
