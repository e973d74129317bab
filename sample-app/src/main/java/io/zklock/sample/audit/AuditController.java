package io.zklock.sample.audit;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import io.zklock.leadership.Candidacy;
import io.zklock.leadership.LeaderElection;
import io.zklock.leadership.Term;

/**
 * {@code GET /audit}: this instance's part in the inventory audit (the demo reads it from each
 * instance).
 */
@RestController
public class AuditController {

	private final InventoryAudit audit;

	private final AuditLedger ledger;

	private final ObjectProvider<LeaderElection> election;

	private final String instance;

	/**
	 * Creates the controller.
	 * @param audit the job
	 * @param ledger its ledger
	 * @param election the leader election, absent with zklock disabled
	 * @param instance this instance's id
	 */
	public AuditController(InventoryAudit audit, AuditLedger ledger, ObjectProvider<LeaderElection> election,
			@Value("${zklock.instance-id}") String instance) {
		this.audit = audit;
		this.ledger = ledger;
		this.election = election;
		this.instance = instance;
	}

	/**
	 * Reports this instance's part in the audit.
	 * @return the status
	 */
	@GetMapping("/audit")
	public AuditStatus status() {
		LeaderElection election = this.election.getIfAvailable();
		long token = (election != null) ? election.candidacy(InventoryAudit.ROLE)
			.flatMap(Candidacy::currentTerm)
			.filter(Term::isActive)
			.map(Term::fencingToken)
			.orElse(0L) : 0L;
		return new AuditStatus(this.instance, InventoryAudit.ROLE, token != 0, token, this.audit.getRunCount(),
				this.audit.getSkippedCount(), this.ledger.getRefusedCount());
	}

}
