package io.zklock.annotation;

import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.util.ClassUtils;

/**
 * Defers a lock's release to the end of a Spring transaction that the annotated method did
 * not start, so that no other process reads uncommitted state under the lock. Only touches
 * spring-tx classes when spring-tx is on the classpath.
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
	 * Runs {@code release} after the current transaction completes (commit or rollback).
	 * @return {@code false} if there is no transaction to wait for; the caller releases
	 */
	static boolean releaseAfterCompletion(Runnable release) {
		return PRESENT && Tx.releaseAfterCompletion(release);
	}

	/** Holds the spring-tx references, loaded only when spring-tx is present. */
	private static final class Tx {

		static boolean inTransaction() {
			return TransactionSynchronizationManager.isSynchronizationActive()
					&& TransactionSynchronizationManager.isActualTransactionActive();
		}

		static boolean releaseAfterCompletion(Runnable release) {
			if (!inTransaction()) {
				return false;
			}
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

				@Override
				public int getOrder() {
					return LOWEST_PRECEDENCE;
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
