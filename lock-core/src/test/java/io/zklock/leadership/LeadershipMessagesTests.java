package io.zklock.leadership;

import java.time.Duration;

import io.zklock.lock.LockEngine;
import io.zklock.lock.ZkServerTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The messages of a leader election that is used wrongly, as docs/troubleshooting.md quotes them:
 * each names the bad value and what to do instead.
 */
@Timeout(60)
class LeadershipMessagesTests extends ZkServerTest {

	@Test
	void shouldNameABadLeadershipRootLeaseFactorOrHandoverTimeout() {
		LockEngine engine = new LockEngine(this.clients.newClient(), "/locks");
		assertThatIllegalArgumentException().isThrownBy(() -> LeaderElection.builder(engine).rootPath("leaders").build())
			.withMessage("Leadership root 'leaders' is invalid: Lock root 'leaders' is invalid: it must start with '/', "
					+ "for example '/leaders'; the default is '/leaders'");
		assertThatIllegalArgumentException().isThrownBy(() -> LeaderElection.builder(engine).leaseFactor(1.5))
			.withMessage("Lease factor 1.5 is invalid: use a number greater than 0 and less than 1, such as 0.8 (the "
					+ "lease must end before the server can expire the session)");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LeaderElection.builder(engine).handoverTimeout(Duration.ofSeconds(-1)))
			.withMessage("Handover timeout -1s is invalid: use zero or more, such as Duration.ofSeconds(10)");
		assertThatIllegalArgumentException().isThrownBy(() -> LeaderElection.builder(null))
			.withMessage("'engine' must not be null: pass the application's LockEngine");
	}

	@Test
	void shouldNameAReasonThatIsZooKeepersToGiveAndABadWait() throws Exception {
		try (LeaderElection election = new LeaderElection(new LockEngine(this.clients.newClient(), "/locks"))) {
			Candidacy candidacy = election.join("jobs");
			assertThatIllegalArgumentException().isThrownBy(() -> candidacy.yield(RevocationReason.SESSION_LOST))
				.withMessage("Cannot yield the term of role 'jobs' for reason SESSION_LOST: use YIELDED or UNHEALTHY "
						+ "(the other reasons are zklock's to give)");
			assertThatIllegalArgumentException().isThrownBy(() -> candidacy.stepDown(RevocationReason.LEASE_EXPIRED))
				.withMessage("Cannot step down from role 'jobs' for reason LEASE_EXPIRED: use UNHEALTHY, YIELDED or "
						+ "SHUTDOWN (the other reasons are zklock's to give)");
			assertThatIllegalArgumentException().isThrownBy(() -> candidacy.awaitTerm(Duration.ofMillis(-5)))
				.withMessage("Wait -5ms for a term of role 'jobs' is invalid: use zero or more, such as "
						+ "Duration.ofSeconds(30)");
			candidacy.leave();
			assertThatIllegalStateException().isThrownBy(candidacy::rejoin)
				.withMessage("The candidacy for role 'jobs' left: join the role again");
		}
	}

	@Test
	void shouldRefuseAJoinOnAClosedElection() {
		LeaderElection election = new LeaderElection(new LockEngine(this.clients.newClient(), "/locks"));
		election.close();
		assertThatIllegalStateException().isThrownBy(() -> election.join("jobs"))
			.withMessage("This leader election is closed: join role 'jobs' with a new one");
	}

}
