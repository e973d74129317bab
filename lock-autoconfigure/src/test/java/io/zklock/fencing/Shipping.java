package io.zklock.fencing;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.LockContext;
import io.zklock.lock.LockHandle;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The first sample of docs/fencing.md: an annotated transactional method and a handle in a
 * {@code TransactionTemplate} advance the fencing token; a token column of one's own row.
 * {@link FencingSampleTests} runs it.
 */
// tag::shipping[]
public class Shipping {

	private final JdbcTemplate jdbc;

	private final JdbcFencingTokens fencing;

	private final TransactionTemplate transactions;

	public Shipping(JdbcTemplate jdbc, PlatformTransactionManager transactionManager) {
		this.jdbc = jdbc;
		this.fencing = new JdbcFencingTokens(jdbc); // table zklock_fencing_token
		this.transactions = new TransactionTemplate(transactionManager);
	}

	@DistributedLock(path = "orders", key = "#orderId")
	@Transactional
	public void ship(long orderId) {
		this.fencing.advance(LockContext.currentLock().orElseThrow()); // "orders/42" and its fencing token
		this.jdbc.update("UPDATE orders SET status = 'SHIPPED' WHERE id = ?", orderId);
	}

	public void cancelWith(LockHandle lock, long orderId) {
		this.transactions.executeWithoutResult((tx) -> {
			this.jdbc.update("UPDATE orders SET status = 'CANCELLED' WHERE id = ?", orderId);
			this.fencing.advance(lock); // throws StaleFencingTokenException: the update rolls back
		});
	}
	// end::shipping[]

	/** The token in a column of the row itself: one conditional update, no second table. */
	// tag::mark-paid[]
	public boolean markPaid(LockHandle lock, long orderId) {
		long token = lock.fencingToken();
		int updated = this.jdbc.update("UPDATE orders SET paid = TRUE, fencing_token = ? "
				+ "WHERE id = ? AND fencing_token <= ?", token, orderId, token);
		return updated == 1; // 0: a newer holder has written the row
	}
	// end::mark-paid[]

	// tag::shipping[]
}
// end::shipping[]
