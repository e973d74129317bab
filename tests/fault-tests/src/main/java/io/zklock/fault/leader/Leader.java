package io.zklock.fault.leader;

import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;

import io.zklock.fault.contender.CommandLoop;
import io.zklock.fault.contender.EventSink;
import io.zklock.leadership.Candidacy;
import io.zklock.leadership.LeaderElection;
import io.zklock.leadership.LeadershipListener;
import io.zklock.leadership.RevocationReason;
import io.zklock.leadership.Term;

/**
 * The commands a leader process understands, one per line on its standard input; see
 * {@link LeaderMain} for the list. One client, one election, at most one role at a time.
 */
final class Leader implements CommandLoop.Program {

	private final String id;

	private final EventSink events;

	private final int registerPort;

	private LeaderClient client;

	private Candidacy candidacy;

	private LeaderWork work;

	Leader(String id, EventSink events, int registerPort) {
		this.id = id;
		this.events = events;
		this.registerPort = registerPort;
	}

	/**
	 * Runs one command.
	 * @return {@code false} once the process should exit
	 */
	@Override
	public boolean handle(String line) throws Exception {
		String[] words = line.trim().split("\\s+");
		switch (words[0]) {
			case "connect" -> connect(words);
			case "join" -> join(words);
			case "leave" -> this.events.reply("left", Long.toString(leave()));
			case "drop-connection" -> this.events.reply("dropped", Long.toString(requireClient().dropConnection()));
			case "status" -> this.events.reply("status", status());
			case "close" -> {
				close();
				this.events.reply("closed", "");
			}
			case "exit" -> {
				close();
				return false;
			}
			default -> this.events.reply("error", "unknown command '" + line + "'");
		}
		return true;
	}

	private void connect(String[] words) throws InterruptedException {
		close();
		double leaseFactor = Double.parseDouble(option(words, "lease-factor=", Double.toString(
				LeaderElection.DEFAULT_LEASE_FACTOR)));
		Duration handover = Duration.ofMillis(Long.parseLong(option(words, "handover-ms=",
				Long.toString(LeaderElection.DEFAULT_HANDOVER_TIMEOUT.toMillis()))));
		this.client = new LeaderClient(this.id, words[1], Duration.ofMillis(Long.parseLong(words[2])), leaseFactor,
				handover, this.events);
		this.events.reply("connected", this.client.sessionId());
	}

	private void join(String[] words) {
		LeaderClient current = requireClient();
		if (this.candidacy != null) {
			throw new IllegalStateException("role '" + this.candidacy.role() + "' is joined already: leave it first");
		}
		String role = words[1];
		LeaderWork.Gate gate = LeaderWork.Gate.of(option(words, "gate=", "active"));
		Duration period = Duration.ofMillis(Long.parseLong(option(words, "period=", "5")));
		String block = option(words, "block=", null);
		this.candidacy = current.election().join(role, new HistoryListener(this.events));
		if (block != null) {
			String[] kindAndMillis = block.split(":");
			this.candidacy.addListener(new BlockingListener(kindAndMillis[0],
					Duration.ofMillis(Long.parseLong(kindAndMillis[1]))));
		}
		this.work = new LeaderWork(this.candidacy, gate, period, this.registerPort, this.events);
		this.work.start();
		this.events.reply("joined", "");
	}

	/** Leaves the role, then stops the work; returns when the leave began, or -1 if no role was joined. */
	private long leave() throws InterruptedException {
		if (this.candidacy == null) {
			return -1;
		}
		Candidacy leaving = this.candidacy;
		long token = leaving.currentTerm().map(Term::fencingToken).orElse(0L);
		long began = System.nanoTime();
		this.events.event(began, "main", "invoke", "leave", leaving.role(), token, null);
		leaving.leave();
		this.events.event("main", "ok", "leave", leaving.role(), token, null);
		this.work.stop();
		this.work = null;
		this.candidacy = null;
		return began;
	}

	private String status() {
		if (this.candidacy == null) {
			return "false 0 NONE " + ((this.client != null) ? this.client.sessionId() : "none");
		}
		Optional<Term> term = this.candidacy.currentTerm();
		return this.candidacy.isLeader() + " " + term.map(Term::fencingToken).orElse(0L) + " "
				+ this.candidacy.state() + " " + this.client.sessionId();
	}

	private LeaderClient requireClient() {
		if (this.client == null) {
			throw new IllegalStateException("not connected: send 'connect' first");
		}
		return this.client;
	}

	/** The value of the last word starting with {@code prefix}, or {@code otherwise}. */
	private static String option(String[] words, String prefix, String otherwise) {
		return Arrays.stream(words)
			.filter((word) -> word.startsWith(prefix))
			.map((word) -> word.substring(prefix.length()))
			.reduce((first, second) -> second)
			.orElse(otherwise);
	}

	@Override
	public void close() throws InterruptedException {
		if (this.candidacy != null) {
			leave();
		}
		if (this.client != null) {
			this.client.close();
			this.client = null;
		}
	}

	/** Records the terms: {@code term granted} and {@code term revoked} (the reason as detail). */
	private static final class HistoryListener implements LeadershipListener {

		private final EventSink events;

		HistoryListener(EventSink events) {
			this.events = events;
		}

		@Override
		public void onGranted(Term term) {
			this.events.event("listener", "term", "granted", term.role(), term.fencingToken(), null);
		}

		@Override
		public void onRevoked(Term term, RevocationReason reason) {
			this.events.event("listener", "term", "revoked", term.role(), term.fencingToken(), reason.name());
		}

	}

	/**
	 * A user callback that blocks: each {@code onGranted} (or each {@code onRevoked}) call sleeps
	 * for a while, as a listener that starts or stops something slow in line would. The
	 * candidacy's later listener calls wait behind it; its terms must not.
	 */
	private static final class BlockingListener implements LeadershipListener {

		private final boolean onGranted;

		private final Duration block;

		BlockingListener(String kind, Duration block) {
			if (!kind.equals("onGranted") && !kind.equals("onRevoked")) {
				throw new IllegalArgumentException("block=" + kind + ": use onGranted or onRevoked");
			}
			this.onGranted = kind.equals("onGranted");
			this.block = block;
		}

		@Override
		public void onGranted(Term term) {
			if (this.onGranted) {
				sleep();
			}
		}

		@Override
		public void onRevoked(Term term, RevocationReason reason) {
			if (!this.onGranted) {
				sleep();
			}
		}

		private void sleep() {
			try {
				Thread.sleep(this.block.toMillis());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

}
