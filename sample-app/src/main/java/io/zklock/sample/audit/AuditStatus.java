package io.zklock.sample.audit;

/**
 * What {@code GET /audit} reports of this instance's part in the inventory audit.
 *
 * @param instance this instance's id
 * @param role the role whose leader audits
 * @param leader whether this instance leads it now
 * @param fencingToken the fencing token of this instance's active term, or 0 if it holds none
 * @param runs the audit runs this instance made
 * @param skipped the calls it skipped because another instance led
 * @param refused the ledger entries of this instance refused for a stale token
 */
public record AuditStatus(String instance, String role, boolean leader, long fencingToken, long runs, long skipped,
		long refused) {

}
