package io.zklock.test;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.leadership.RevocationReason;
import io.zklock.leadership.Term;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ContextConfiguration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * {@link LeadershipTester} in a Spring test with {@link EmbeddedZooKeeper}: a test forces the grant,
 * each revocation and the session expiry of a role, and another instance's leadership, and sees
 * what the application does at each.
 */
@EmbeddedZooKeeper
@SpringBootTest
@ContextConfiguration(classes = LeaderJobs.Application.class)
@Tag("slow")
@Timeout(60)
class LeadershipTesterTests {

	@Autowired
	LeadershipTester leadership;

	@Autowired
	LeaderJobs jobs;

	@Autowired
	LeaderJobs.InvoiceListener invoiceListener;

	@AfterEach
	void leadAgain() {
		this.leadership.grant("billing-close");
	}

	// tag::revoke[]
	@Test
	void shouldRunTheJobOnlyWhileGranted() {
		Term term = this.leadership.grant("billing-close");
		assertThat(this.jobs.closeTheDay()).isEqualTo(term.fencingToken());   // @LeaderOnly: runs, with the token
		await().atMost(Duration.ofSeconds(10)).until(this.invoiceListener::isRunning);   // @LeaderScoped: started
		this.leadership.revoke("billing-close", RevocationReason.UNHEALTHY);   // returns once the revocation is done
		assertThat(this.invoiceListener.isRunning()).isFalse();
		assertThat(this.jobs.closeTheDay()).isNull();                          // skipped while stood down
		Term again = this.leadership.grant("billing-close");
		assertThat(again.fencingToken()).isGreaterThan(term.fencingToken());   // a new term, a larger token
	}
	// end::revoke[]

	@Test
	void shouldResumeTheSameTermAfterASuspendedConnection() {
		Term term = this.leadership.grant("billing-close");
		this.leadership.revoke("billing-close", RevocationReason.CONNECTION_SUSPENDED);
		Term resumed = this.leadership.awaitTerm("billing-close");
		assertThat(resumed.fencingToken()).isEqualTo(term.fencingToken());
		await().atMost(Duration.ofSeconds(10)).until(this.invoiceListener::isRunning);
	}

	@Test
	void shouldLeadWithANewTermAfterTheSessionOrTheNodeIsLost() {
		Term term = this.leadership.grant("billing-close");
		this.leadership.expireSession();
		Term afterExpiry = this.leadership.awaitTerm("billing-close");
		assertThat(afterExpiry.fencingToken()).isGreaterThan(term.fencingToken());
		assertThat(term.revocationReason()).contains(RevocationReason.SESSION_LOST);
		this.leadership.revoke("billing-close", RevocationReason.NODE_DELETED);
		assertThat(afterExpiry.revocationReason()).contains(RevocationReason.NODE_DELETED);
		assertThat(this.leadership.awaitTerm("billing-close").fencingToken()).isGreaterThan(afterExpiry.fencingToken());
	}

	@Test
	void shouldFollowWhileAnotherInstanceLeads() {
		this.leadership.grant("billing-close");
		// tag::elsewhere[]
		try (BusyLock otherLeader = this.leadership.leadElsewhere("billing-close")) {   // another instance leads
			assertThat(this.jobs.closeTheDay()).isNull();
			await().atMost(Duration.ofSeconds(10)).until(() -> !this.invoiceListener.isRunning());
		}                                                                               // closed: this one leads again
		// end::elsewhere[]
		assertThat(this.jobs.closeTheDay()).isEqualTo(this.leadership.awaitTerm("billing-close").fencingToken());
	}

	@Test
	void shouldRefuseALeaseExpiryItCannotForce() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.leadership.revoke("billing-close", RevocationReason.LEASE_EXPIRED))
			.withMessageStartingWith("A test cannot force LEASE_EXPIRED");
	}

}
