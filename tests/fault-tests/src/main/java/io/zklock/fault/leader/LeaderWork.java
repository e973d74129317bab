package io.zklock.fault.leader;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

import io.zklock.fault.contender.EventSink;
import io.zklock.fault.contender.RegisterClient;
import io.zklock.leadership.Candidacy;
import io.zklock.leadership.CandidacyState;
import io.zklock.leadership.Term;

/**
 * The leader work of one candidacy, on a thread of its own ({@code work}): while the candidacy
 * leads, one unit after another, each a check before a write to the fenced register with the
 * term's token (the register key is the role, the value a sequence), then a pause of
 * {@code period}. The check is what {@link Gate} says; a unit whose check passes is recorded
 * as {@code ok check}, stamped <em>before</em> the check (so a process frozen between its stamp
 * and its check can only make the stamp earlier, never invent a late pass), with the moment the
 * check returned as its detail (the check looked at the term within those two), and its write as
 * {@code ok write} or {@code fail write} with the register's answer. The first failing check
 * after passing ones is recorded as {@code info stopped}. While it does not lead it waits for a
 * term ({@link Candidacy#awaitTerm(Duration)}, woken at the grant).
 */
final class LeaderWork {

	/** What the work asks before each write. */
	enum Gate {

		/** {@link Term#isActive()}: zklock's advice. */
		ACTIVE,

		/**
		 * Only whether the candidacy holds a term that has not ended, as an application that
		 * follows grant and loss events (a latch's {@code hasLeadership()}) would: the negative
		 * control, which goes on through jeopardy until the session is found lost.
		 */
		HELD;

		static Gate of(String word) {
			return valueOf(word.toUpperCase(Locale.ROOT));
		}

		boolean allows(Term term) {
			return (this == ACTIVE) ? term.isActive() : !term.isEnded();
		}

	}

	private static final Duration WAIT_FOR_TERM = Duration.ofMillis(100);

	private final Candidacy candidacy;

	private final Gate gate;

	private final Duration period;

	private final int registerPort;

	private final EventSink events;

	private final Thread thread;

	private volatile boolean running = true;

	LeaderWork(Candidacy candidacy, Gate gate, Duration period, int registerPort, EventSink events) {
		this.candidacy = candidacy;
		this.gate = gate;
		this.period = period;
		this.registerPort = registerPort;
		this.events = events;
		this.thread = new Thread(this::run, "work");
		this.thread.setDaemon(true);
	}

	void start() {
		this.thread.start();
	}

	void stop() throws InterruptedException {
		this.running = false;
		this.thread.interrupt();
		this.thread.join(10_000);
	}

	private void run() {
		String role = this.candidacy.role();
		long sequence = 0;
		long working = 0;
		try (RegisterClient register = new RegisterClient(this.registerPort)) {
			while (this.running) {
				Optional<Term> held = this.candidacy.currentTerm();
				long checkedAt = System.nanoTime();
				Term term = held.orElse(null);
				if (term == null || !this.gate.allows(term)) {
					if (working != 0) {
						this.events.event(checkedAt, "work", "info", "stopped", role, working,
								(term != null) ? term.revocationReason().map(Enum::name).orElse("-") : "no-term");
						working = 0;
					}
					awaitTerm();
					continue;
				}
				long token = term.fencingToken();
				long returned = System.nanoTime();
				this.events.event(checkedAt, "work", "ok", "check", role, token, Long.toString(returned));
				working = token;
				boolean accepted = register.write(role, token, ++sequence);
				this.events.event("work", accepted ? "ok" : "fail", "write", role, token,
						accepted ? "accepted" : "rejected");
				Thread.sleep(this.period.toMillis());
			}
		}
		catch (InterruptedException ex) {
			// stopped
		}
		catch (RuntimeException ex) {
			if (this.running) {
				System.err.println("Leader work failed: " + ex);
				ex.printStackTrace();
			}
		}
	}

	private void awaitTerm() throws InterruptedException {
		if (this.candidacy.state() == CandidacyState.LEFT) {
			Thread.sleep(this.period.toMillis());
		}
		else {
			this.candidacy.awaitTerm(WAIT_FOR_TERM);
		}
	}

}
