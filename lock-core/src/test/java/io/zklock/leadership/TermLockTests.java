package io.zklock.leadership;

import java.time.Duration;

import io.zklock.lock.GuardedTransaction;
import io.zklock.lock.LockEngine;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockLostException;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockState;
import io.zklock.lock.ZkServerTest;
import io.zklock.lock.ZkTestSupport;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.retry.RetryNTimes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A term's hold as a {@link LockHandle} ({@link Term#lock()}) works where a lock does: a guarded write
 * of the leader applies, a stale leader's is refused once its successor leads; it cannot be released
 * through the handle.
 */
@Timeout(120)
class TermLockTests extends ZkServerTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	@Test
	void shouldGuardALeadersWriteAndRefuseAStaleLeadersWriteAfterItsSuccessorLeads() throws Exception {
		CuratorFramework stale = this.clients.newClient((builder) -> builder.sessionTimeoutMs(4000)
			.connectionTimeoutMs(1000)
			.retryPolicy(new RetryNTimes(3, 100)));
		CuratorFramework successor = this.clients.newClient();
		try (LeaderElection first = new LeaderElection(new LockEngine(stale, "/locks"));
				LeaderElection second = new LeaderElection(new LockEngine(successor, "/locks"))) {
			Term term = first.join("ledger").awaitTerm(WAIT).orElseThrow();
			LockHandle lock = term.lock();
			assertThat(lock.mode()).isEqualTo(LockMode.EXCLUSIVE);
			GuardedTransaction.commit(stale, lock, stale.transactionOp().create().forPath("/ledger-1"));
			assertThat(successor.checkExists().forPath("/ledger-1")).isNotNull();
			Candidacy next = second.join("ledger");
			await().atMost(WAIT).until(() -> second.candidates("ledger").size() == 2);

			ZkTestSupport.expireSession(server, stale);
			Term nextTerm = next.awaitTerm(WAIT).orElseThrow();
			assertThat(nextTerm.fencingToken()).isGreaterThan(term.fencingToken());
			await().atMost(WAIT).until(() -> stale.getZookeeperClient().isConnected());
			assertThatExceptionOfType(LockLostException.class)
				.isThrownBy(() -> GuardedTransaction.commit(stale, lock, stale.transactionOp().create().forPath("/ledger-2")))
				.withMessageContaining("'ledger'");
			assertThat(successor.checkExists().forPath("/ledger-2")).isNull();
			assertThat(lock.state()).isEqualTo(LockState.LOST);
			GuardedTransaction.commit(successor, nextTerm.lock(),
					successor.transactionOp().create().forPath("/ledger-2"));
		}
	}

	@Test
	void shouldRefuseToReleaseTheTermThroughItsHandle() throws Exception {
		try (LeaderElection election = new LeaderElection(new LockEngine(this.clients.newClient(), "/locks"))) {
			Term term = election.join("ledger").awaitTerm(WAIT).orElseThrow();
			assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(() -> term.lock().close())
				.withMessage("The lock of a term of role 'ledger' (fencing token " + term.fencingToken()
						+ ") is not released through its handle: end the term with the candidacy's yield(), "
						+ "stepDown(reason) or leave()");
			assertThat(term.isActive()).isTrue();
		}
	}

}
