package io.zklock.sample.audit;

import java.io.UncheckedIOException;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.zklock.annotation.LeaderContext;
import io.zklock.annotation.LeaderOnly;
import io.zklock.annotation.SkippedCall;
import io.zklock.annotation.SkippedCallListener;
import io.zklock.leadership.Term;
import io.zklock.sample.inventory.InventoryStore;

import org.springframework.scheduling.annotation.Scheduled;

/**
 * A job only one instance runs: every {@code sample.audit.interval} each instance's scheduler calls
 * {@link #audit()}, and only the leader of role {@value #ROLE} runs it; the others skip the call.
 * It counts the stock of every SKU and appends the total to the shared {@link AuditLedger} with its
 * term's fencing token, which the ledger checks.
 */
public class InventoryAudit implements SkippedCallListener {

	/** The role whose leader audits. */
	public static final String ROLE = "inventory-audit";

	private final InventoryStore store;

	private final AuditLedger ledger;

	private final String instance;

	private static final Log logger = LogFactory.getLog(InventoryAudit.class);

	private final AtomicLong ran = new AtomicLong();

	private final AtomicLong skipped = new AtomicLong();

	/**
	 * Creates the job.
	 * @param store the inventory it counts
	 * @param ledger where it writes
	 * @param instance this instance's id, written with each entry
	 */
	public InventoryAudit(InventoryStore store, AuditLedger ledger, String instance) {
		this.store = store;
		this.ledger = ledger;
		this.instance = instance;
	}

	/**
	 * One audit run, on the leader only: counts the stock and appends it to the ledger under the
	 * term's token.
	 */
	@Scheduled(fixedDelayString = "${sample.audit.interval-millis:200}")
	@LeaderOnly(ROLE)
	public void audit() {
		Long token = LeaderContext.currentTerm().map(Term::fencingToken).orElse(null);
		try {
			long total = this.store.totalStock();
			this.ledger.append(this.instance, token, total);
			this.ran.incrementAndGet();
		}
		catch (UncheckedIOException ex) {
			// the inventory directory went away (a test deleted it): the next tick tries again
			logger.warn("Inventory audit failed: " + ex.getMessage() + " (" + ex.getCause() + ")");
		}
	}

	@Override
	public void onSkipped(SkippedCall call) {
		if (call.reason() == SkippedCall.Reason.NOT_LEADER && ROLE.equals(call.lockName())) {
			this.skipped.incrementAndGet();
		}
	}

	/**
	 * How many runs this instance made.
	 * @return the runs
	 */
	public long getRunCount() {
		return this.ran.get();
	}

	/**
	 * How many calls this instance skipped because another instance led.
	 * @return the skipped calls
	 */
	public long getSkippedCount() {
		return this.skipped.get();
	}

}
