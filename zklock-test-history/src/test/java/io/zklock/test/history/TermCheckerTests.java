package io.zklock.test.history;

import java.util.ArrayList;
import java.util.List;

import io.zklock.lock.LockMode;
import io.zklock.test.history.LockEvent.Type;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * "One fenced writer per term" on hand-made leadership histories: it must pass correct ones and
 * catch each kind of violation. Stamps are in milliseconds here.
 */
@Timeout(10)
class TermCheckerTests {

	private static final String ROLE = "billing-close";

	private static final String LEDGER = "ledger";

	private final List<LockEvent> history = new ArrayList<>();

	@Test
	void shouldAcceptTermsWhoseWritesFollowEachOtherAndAStaleWriteRefused() {
		term("app-1", ROLE, 10, 10);
		write(11, "app-1", Type.WRITE_ACCEPTED, LEDGER, 10);
		revoke(12, "app-1", ROLE, 10, "CONNECTION_SUSPENDED");
		term("app-1", ROLE, 13, 10);
		write(14, "app-1", Type.WRITE_ACCEPTED, LEDGER, 10);
		revoke(15, "app-1", ROLE, 10, "LEASE_EXPIRED");
		term("app-2", ROLE, 20, 25);
		write(21, "app-1", Type.WRITE_ACCEPTED, LEDGER, 10);
		write(22, "app-2", Type.WRITE_ACCEPTED, LEDGER, 25);
		write(23, "app-1", Type.WRITE_REFUSED, LEDGER, 10);
		term("app-3", "reports", 24, 26);
		write(25, "app-3", Type.WRITE_ACCEPTED, "reports-store", 26);
		TermCheckResult result = HistoryChecker.checkTerms(this.history).assertOneFencedWriterPerTerm();
		assertThat(result.terms()).isEqualTo(3);
		assertThat(result.resumptions()).isEqualTo(1);
		assertThat(result.acceptedWrites()).isEqualTo(5);
		assertThat(result.refusedWrites()).isEqualTo(1);
		assertThat(result.acceptedAfterRevocation()).as("app-1's write at 21, after its revocation").isEqualTo(1);
	}

	@Test
	void shouldReportAWriteOfAnEarlierTermAcceptedAfterALaterTermsWrite() {
		term("app-1", ROLE, 10, 10);
		term("app-2", ROLE, 20, 25);
		write(21, "app-2", Type.WRITE_ACCEPTED, LEDGER, 25);
		write(22, "app-1", Type.WRITE_ACCEPTED, LEDGER, 10);
		TermCheckResult result = HistoryChecker.checkTerms(this.history);
		assertThat(result.isSafe()).isFalse();
		assertThat(result.violations()).containsExactly("Terms interleaved at 'ledger': a write of app-1's term of role "
				+ "'billing-close' (token 10) accepted after a write of the later app-2's term of role 'billing-close' "
				+ "(token 25)");
		assertThatExceptionOfType(AssertionError.class).isThrownBy(result::assertOneFencedWriterPerTerm)
			.withMessageStartingWith("Leadership history of 2 terms and 2 accepted writes has more than one fenced "
					+ "writer per term:")
			.withMessageContaining("Terms interleaved at 'ledger'");
	}

	@Test
	void shouldJudgeEveryResourceOnItsOwn() {
		term("app-1", ROLE, 10, 10);
		term("app-2", ROLE, 20, 25);
		write(21, "app-2", Type.WRITE_ACCEPTED, LEDGER, 25);
		write(22, "app-1", Type.WRITE_ACCEPTED, "archive", 10);
		assertThat(HistoryChecker.checkTerms(this.history).violations()).isEmpty();
	}

	@Test
	void shouldReportATermTokenOfTwoTermsOfOneRoleOrOfTwo() {
		term("app-1", ROLE, 10, 10);
		term("app-2", ROLE, 20, 10);
		term("app-3", "reports", 30, 10);
		assertThat(HistoryChecker.checkTerms(this.history).violations()).containsExactly(
				"Term token 10 granted to two terms: app-1's term of role 'billing-close' and app-2's term of role "
						+ "'billing-close'",
				"Term token 10 granted to two terms: app-1's term of role 'billing-close' and app-3's term of role "
						+ "'reports'");
	}

	@Test
	void shouldReportATermTokenAlsoGrantedAsALock() {
		term("app-1", ROLE, 10, 10);
		this.history.add(new LockEvent(12_000_000, "app-2", "w0", Type.GRANTED, "orders/42", LockMode.EXCLUSIVE, 10, ""));
		assertThat(HistoryChecker.checkTerms(this.history).violations()).containsExactly("Term token 10 of app-1's term "
				+ "of role 'billing-close' also granted as a lock: to app-2/w0 on 'orders/42'");
	}

	@Test
	void shouldReportAnAcceptedWriteWithTheTokenOfNoTermOrOfAnotherHoldersTerm() {
		term("app-1", ROLE, 10, 10);
		write(11, "app-2", Type.WRITE_ACCEPTED, LEDGER, 10);
		write(12, "app-2", Type.WRITE_ACCEPTED, LEDGER, 99);
		assertThat(HistoryChecker.checkTerms(this.history).violations()).containsExactly(
				"Write accepted on 'ledger' from app-2 with token 10 of app-1's term of role 'billing-close'",
				"Write accepted on 'ledger' from app-2 with token 99, the token of no term");
	}

	@Test
	void shouldLeaveTheWritesOfLocksToTheLockChecker() {
		this.history.add(new LockEvent(10_000_000, "app-1", "w0", Type.GRANTED, "orders/42", LockMode.EXCLUSIVE, 7, ""));
		write(11, "app-1", Type.WRITE_ACCEPTED, "orders/42", 7);
		TermCheckResult result = HistoryChecker.checkTerms(this.history).assertOneFencedWriterPerTerm();
		assertThat(result.acceptedWrites()).isZero();
		assertThat(result.terms()).isZero();
	}

	private void term(String holder, String role, long millis, long token) {
		this.history.add(new LockEvent(millis * 1_000_000, holder, "events", Type.TERM_GRANTED, role, LockMode.EXCLUSIVE,
				token, ""));
	}

	private void revoke(long millis, String holder, String role, long token, String reason) {
		this.history.add(new LockEvent(millis * 1_000_000, holder, "events", Type.TERM_REVOKED, role, LockMode.EXCLUSIVE,
				token, reason));
	}

	private void write(long millis, String holder, Type type, String resource, long token) {
		this.history.add(new LockEvent(millis * 1_000_000, holder, "worker", type, resource, LockMode.EXCLUSIVE, token,
				""));
	}

}
