package io.zklock.leadership;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.zklock.lock.GuardedTransaction;
import io.zklock.lock.LockEngine;
import org.apache.curator.framework.CuratorFramework;

/**
 * The sample of docs/leadership.md: a nightly close of the day's invoices that only the leader of
 * the role {@code "billing-close"} runs, writing to a ledger that refuses older fencing tokens.
 * {@link LeadershipSamplesTests} runs it.
 */
public class DailyClose implements LeadershipListener, AutoCloseable {

	/** What the leader writes to: a store that keeps the newest fencing token it accepted. */
	public interface Ledger {

		/**
		 * Closes an invoice, unless a newer token was accepted already.
		 * @throws IllegalStateException if {@code fencingToken} is older than one accepted before
		 */
		void close(String invoice, long fencingToken);

	}

	private final CuratorFramework client;

	private final Ledger ledger;

	private final List<String> invoices;

	private final ExecutorService worker = Executors.newSingleThreadExecutor();

	private final LeaderElection election;

	private final Candidacy candidacy;

	public DailyClose(LockEngine engine, Ledger ledger, List<String> invoices) {
		this.client = engine.getClient();
		this.ledger = ledger;
		this.invoices = invoices;
		// tag::join[]
		this.election = LeaderElection.builder(engine)
			.holder("billing", "billing-1")   // who leads, for operators
			.build();
		this.candidacy = this.election.join("billing-close", this);         // queues at once, on zklock's thread
		// end::join[]
	}

	// tag::listener[]
	@Override
	public void onGranted(Term term) {
		this.worker.submit(() -> closeTheDay(term));   // a listener starts the work, it does not run it
	}

	@Override
	public void onRevoked(Term term, RevocationReason reason) {
		// nothing to stop: closeTheDay checks the term before each write
	}
	// end::listener[]

	// tag::work[]
	void closeTheDay(Term term) {
		for (String invoice : this.invoices) {
			if (!term.isActive()) {
				return;                                        // revoked: the next leader carries on
			}
			this.ledger.close(invoice, term.fencingToken());   // the ledger refuses an older token
		}
	}
	// end::work[]

	// tag::guarded[]
	void markClosed(Term term) throws Exception {
		GuardedTransaction.commit(this.client, term.lock(),   // applies only while the term's node exists
				this.client.transactionOp().create().forPath("/billing-closed", "today".getBytes(StandardCharsets.UTF_8)));
	}
	// end::guarded[]

	Optional<String> whoLeads() {
		// tag::who-leads[]
		return this.election.leader("billing-close").map(Candidate::describe);   // "host web-2, process 4711, …"
		// end::who-leads[]
	}

	Candidacy candidacy() {
		return this.candidacy;
	}

	// tag::close[]
	@Override
	public void close() {
		this.election.close();   // revokes (SHUTDOWN), then deletes the node: the next candidate leads at once
		this.worker.shutdown();
	}
	// end::close[]

}
