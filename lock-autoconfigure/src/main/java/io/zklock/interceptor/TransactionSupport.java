package io.zklock.interceptor;

import io.zklock.lock.LockLostException;

import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.util.ClassUtils;

/**
 * Keeps a call's locks until the end of a Spring transaction that the annotated method did not
 * start, so that no other process reads uncommitted state under the lock, and checks them
 * before the commit: a lock lost while the transaction ran fails the commit with
 * {@link LockLostException}, which rolls it back. Only touches spring-tx classes when
 * spring-tx is on the classpath.
 */
final class TransactionSupport {

	private static final boolean PRESENT = ClassUtils.isPresent(
			"org.springframework.transaction.support.TransactionSynchronizationManager",
			TransactionSupport.class.getClassLoader());

	private TransactionSupport() {
	}

	/** Whether the calling thread runs inside a transaction with synchronization. */
	static boolean inTransaction() {
		return PRESENT && Tx.inTransaction();
	}

	/**
	 * Keeps {@code held} until the current transaction completes (commit or rollback), then
	 * runs {@code release}.
	 * @param checkBeforeCommit whether a lock that is not held any more fails the commit
	 * @return {@code false} if there is no transaction to wait for; the caller releases
	 */
	static boolean holdUntilCompletion(LockedCall held, Runnable release, boolean checkBeforeCommit) {
		return PRESENT && Tx.holdUntilCompletion(held, release, checkBeforeCommit);
	}

	/** Holds the spring-tx references, loaded only when spring-tx is present. */
	private static final class Tx {

		static boolean inTransaction() {
			return TransactionSynchronizationManager.isSynchronizationActive()
					&& TransactionSynchronizationManager.isActualTransactionActive();
		}

		static boolean holdUntilCompletion(LockedCall held, Runnable release, boolean checkBeforeCommit) {
			if (!inTransaction()) {
				return false;
			}
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

				@Override
				public int getOrder() {
					return LOWEST_PRECEDENCE;
				}

				@Override
				public void beforeCommit(boolean readOnly) {
					LockLostException lost = checkBeforeCommit ? held.lostException("was about to commit", "the transaction was rolled back") : null;
					if (lost != null) {
						throw lost;
					}
				}

				@Override
				public void afterCompletion(int status) {
					release.run();
				}

			});
			return true;
		}

	}

}
