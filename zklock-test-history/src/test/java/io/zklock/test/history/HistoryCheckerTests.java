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
 * The checker on hand-made histories: it must pass correct ones and catch each kind of
 * violation, or nothing that uses it proves anything. Stamps are in milliseconds here.
 */
@Timeout(10)
class HistoryCheckerTests {

	private static final String PATH = "orders/42";

	private static final String OTHER_PATH = "orders/7";

	private final List<LockEvent> history = new ArrayList<>();

	@Test
	void shouldAcceptSequentialHoldsWithIncreasingTokens() {
		hold("app-1", LockMode.EXCLUSIVE, 10, 11, 12, 20);
		hold("app-2", LockMode.EXCLUSIVE, 13, 21, 22, 30);
		add(23, "app-2", Type.REENTERED, LockMode.EXCLUSIVE, 22, "");
		CheckResult result = HistoryChecker.check(this.history).assertSafe();
		assertThat(result.grants()).isEqualTo(2);
		assertThat(result.reentrantGrants()).isEqualTo(1);
		assertThat(result.overlaps()).isEmpty();
	}

	@Test
	void shouldReportTwoHoldsAtOnceNamingBothInTheFailure() {
		hold("app-1", LockMode.EXCLUSIVE, 10, 11, 12, 20);
		hold("app-2", LockMode.EXCLUSIVE, 13, 15, 16, 30);
		CheckResult result = HistoryChecker.check(this.history);
		assertThat(result.overlaps()).hasSize(1);
		assertThat(result.violations()).as("tokens are fine").isEmpty();
		assertThatExceptionOfType(AssertionError.class).isThrownBy(result::assertSafe)
			.withMessageContaining("Lock path 'orders/42' held twice at once for 5.000 ms")
			.withMessageContaining("EXCLUSIVE token 12 by app-1 on thread 'w0', held 1.000 ms → 10.000 ms")
			.withMessageContaining("EXCLUSIVE token 16 by app-2 on thread 'w0', held 5.000 ms → 20.000 ms");
		assertThatExceptionOfType(AssertionError.class).isThrownBy(result::assertExclusive);
		result.assertFenced();
	}

	@Test
	void shouldLetReadersShareTheLockButNotAWriter() {
		hold("app-1", LockMode.READ, 10, 11, 12, 30);
		hold("app-2", LockMode.READ, 13, 14, 15, 25);
		assertThat(HistoryChecker.check(this.history).overlaps()).isEmpty();
		hold("app-3", LockMode.WRITE, 16, 20, 21, 40);
		assertThat(HistoryChecker.check(this.history).overlaps()).extracting((o) -> o.second().holder())
			.containsExactly("app-3", "app-3");
	}

	@Test
	void shouldJudgeEveryLockPathOnItsOwn() {
		hold("app-1", LockMode.EXCLUSIVE, 10, 11, 12, 20);
		add(13, "app-2", Type.ACQUIRING, "orders/7", LockMode.EXCLUSIVE, 0);
		add(14, "app-2", Type.GRANTED, "orders/7", LockMode.EXCLUSIVE, 16);
		add(18, "app-2", Type.RELEASING, "orders/7", LockMode.EXCLUSIVE, 16);
		CheckResult result = HistoryChecker.check(this.history).assertSafe();
		assertThat(result.grants()).isEqualTo(2);
	}

	@Test
	void shouldReportATokenGrantedTwice() {
		hold("app-1", LockMode.EXCLUSIVE, 10, 11, 12, 20);
		hold("app-2", LockMode.EXCLUSIVE, 10, 21, 12, 30);
		assertThat(HistoryChecker.check(this.history).violations()).singleElement()
			.asString()
			.isEqualTo("Fencing token 12 of 'orders/42' granted twice: to app-1/w0 and to app-2/w0");
	}

	@Test
	void shouldReportASmallerTokenAfterALargerGrantReturned() {
		hold("app-1", LockMode.EXCLUSIVE, 10, 11, 50, 20);
		hold("app-2", LockMode.WRITE, 21, 22, 40, 30);
		CheckResult result = HistoryChecker.check(this.history);
		assertThat(result.violations()).singleElement().asString().startsWith("Token order on 'orders/42'");
		assertThatExceptionOfType(AssertionError.class).isThrownBy(result::assertFenced)
			.withMessageContaining("app-2/w0 got token 40 although app-1/w0 had got token 50");
	}

	@Test
	void shouldLetConcurrentAcquiresReturnInEitherOrder() {
		// app-2 began before app-1's grant returned: its smaller token is no violation
		add(5, "app-2", Type.ACQUIRING, LockMode.READ, 0, "");
		hold("app-1", LockMode.READ, 6, 7, 50, 8);
		add(9, "app-2", Type.GRANTED, LockMode.READ, 40, "");
		add(12, "app-2", Type.RELEASING, LockMode.READ, 40, "");
		HistoryChecker.check(this.history).assertSafe();
	}

	@Test
	void shouldNotJudgeTheOrderOfAGrantWhoseAcquireStartIsUnknown() {
		hold("app-1", LockMode.READ, 6, 7, 50, 8);
		add(9, "app-2", Type.GRANTED, LockMode.READ, 40, "");
		add(12, "app-2", Type.RELEASING, LockMode.READ, 40, "");
		HistoryChecker.check(this.history).assertSafe();
	}

	@Test
	void shouldAcceptHoldsOfSeveralLockPathsWithTokensInRealTimeOrder() {
		// one worker takes orders/42 then orders/7, another the same in turn; a third begins on orders/7
		// before the others' grants returned and gets a smaller token: concurrent, no violation
		hold("app-1", PATH, LockMode.EXCLUSIVE, 10, 11, 12, 30);
		hold("app-1", OTHER_PATH, LockMode.EXCLUSIVE, 12, 13, 14, 29);
		add(9, "app-3", Type.ACQUIRING, OTHER_PATH, LockMode.WRITE, 0);
		add(31, "app-3", Type.GRANTED, OTHER_PATH, LockMode.WRITE, 5);
		add(32, "app-3", Type.RELEASING, OTHER_PATH, LockMode.WRITE, 5);
		hold("app-2", PATH, LockMode.EXCLUSIVE, 15, 33, 34, 40);
		hold("app-2", OTHER_PATH, LockMode.EXCLUSIVE, 35, 36, 37, 39);
		// a reentrant acquire is no grant: its hold's older token is no violation across lock paths
		this.history.add(new LockEvent(38_000_000, "app-2", "w0", Type.REENTERED, PATH, LockMode.EXCLUSIVE, 34, ""));
		CheckResult result = HistoryChecker.check(this.history).assertSafe();
		assertThat(result.grants()).isEqualTo(5);
		assertThat(result.reentrantGrants()).isEqualTo(1);
	}

	@Test
	void shouldReportATokenGrantedOnTwoLockPathsNamingBothGrants() {
		// one session's end deleted nodes on both lock paths at one zxid, and each waiter took that zxid
		hold("app-1", PATH, LockMode.EXCLUSIVE, 10, 20, 77, 30);
		hold("app-2", OTHER_PATH, LockMode.WRITE, 11, 20, 77, 31);
		CheckResult result = HistoryChecker.check(this.history);
		assertThat(result.violations()).containsExactly(
				"Fencing token 77 granted on two lock paths: to app-1/w0 on 'orders/42' and to app-2/w0 on 'orders/7'");
		assertThat(HistoryChecker.check(this.history, PATH).violations()).as("one lock path alone").isEmpty();
		assertThatExceptionOfType(AssertionError.class).isThrownBy(result::assertFenced)
			.withMessageContaining("granted on two lock paths");
	}

	@Test
	void shouldReportASmallerTokenAfterALargerGrantOfAnotherLockPathReturned() {
		// a token written ahead on orders/7 before the acquire began, handed to it after a grant on orders/42
		hold("app-1", PATH, LockMode.EXCLUSIVE, 10, 11, 50, 20);
		hold("app-2", OTHER_PATH, LockMode.EXCLUSIVE, 21, 22, 40, 30);
		CheckResult result = HistoryChecker.check(this.history);
		assertThat(result.violations()).containsExactly("Token order across lock paths: app-2/w0 got token 40 on "
				+ "'orders/7' although app-1/w0 had got token 50 on 'orders/42' before that acquire began");
		assertThat(HistoryChecker.check(this.history, OTHER_PATH).violations()).as("one lock path alone").isEmpty();
	}

	@Test
	void shouldJudgeAcrossLockPathsAgainstTheLargestTokenOfAnotherLockPath() {
		// the largest token returned is of the grant's own lock path (reported once, per lock path); the
		// largest of another lock path is still above the grant's token
		hold("app-1", PATH, LockMode.EXCLUSIVE, 10, 11, 60, 12);
		hold("app-2", OTHER_PATH, LockMode.EXCLUSIVE, 10, 13, 50, 14);
		hold("app-3", PATH, LockMode.EXCLUSIVE, 21, 22, 45, 30);
		assertThat(HistoryChecker.check(this.history).violations()).containsExactly(
				"Token order on 'orders/42': app-3/w0 got token 45 although app-1/w0 had got token 60 before that "
						+ "acquire began",
				"Token order across lock paths: app-3/w0 got token 45 on 'orders/42' although app-2/w0 had got "
						+ "token 50 on 'orders/7' before that acquire began");
	}

	@Test
	void shouldReportAPairOfOneLockPathOnceNotAgainAcrossLockPaths() {
		hold("app-1", PATH, LockMode.EXCLUSIVE, 10, 11, 50, 20);
		hold("app-2", PATH, LockMode.EXCLUSIVE, 21, 22, 50, 30);
		hold("app-3", OTHER_PATH, LockMode.EXCLUSIVE, 5, 6, 7, 8);
		assertThat(HistoryChecker.check(this.history).violations()).containsExactly(
				"Fencing token 50 of 'orders/42' granted twice: to app-1/w0 and to app-2/w0",
				"Token order on 'orders/42': app-2/w0 got token 50 although app-1/w0 had got token 50 before that "
						+ "acquire began");
	}

	@Test
	void shouldCapTheMessagesAcrossLockPaths() {
		for (int i = 0; i < 25; i++) {
			hold("app-" + i, "orders/" + i, LockMode.EXCLUSIVE, 10, 11, 99, 12);
		}
		List<String> violations = HistoryChecker.check(this.history).violations();
		assertThat(violations).hasSize(21).last().isEqualTo("… and 4 more");
	}

	@Test
	void shouldReportAReentrantAcquireWithAnotherToken() {
		hold("app-1", LockMode.EXCLUSIVE, 10, 11, 12, 20);
		add(13, "app-1", Type.REENTERED, LockMode.EXCLUSIVE, 99, "");
		assertThat(HistoryChecker.check(this.history).violations()).singleElement()
			.asString()
			.startsWith("Reentrant acquire of 'orders/42' by app-1/w0 returned token 99");
	}

	@Test
	void shouldEndAHoldWhenLostOrDeadAndEarlierWhenInDoubt() {
		add(10, "app-1", Type.ACQUIRING, LockMode.EXCLUSIVE, 0, "");
		add(11, "app-1", Type.GRANTED, LockMode.EXCLUSIVE, 12, "");
		add(13, "app-1", Type.IN_DOUBT, LockMode.EXCLUSIVE, 12, "");
		add(20, "app-1", Type.LOST, LockMode.EXCLUSIVE, 12, "");
		hold("app-2", LockMode.EXCLUSIVE, 14, 15, 16, 18);
		add(21, "app-3", Type.ACQUIRING, LockMode.EXCLUSIVE, 0, "");
		add(22, "app-3", Type.GRANTED, LockMode.EXCLUSIVE, 17, "");
		this.history.add(new LockEvent(23_000_000, "app-3", "-", Type.DIED, "-", LockMode.EXCLUSIVE, 0, "SIGKILL"));
		hold("app-4", LockMode.EXCLUSIVE, 19, 24, 25, 30);
		CheckResult result = HistoryChecker.check(this.history);
		assertThat(result.overlaps()).as("app-1 held until LOST, overlapping app-2").hasSize(1);
		assertThat(result.overlapsUntilDoubt()).as("app-1 held only until IN_DOUBT").isEmpty();
		assertThat(result.lossReports()).isEqualTo(1);
		result.assertFenced();
	}

	@Test
	void shouldReportAStaleWriteAcceptedByAFencedResource() {
		hold("app-1", LockMode.EXCLUSIVE, 10, 11, 12, 20);
		hold("app-2", LockMode.EXCLUSIVE, 21, 22, 23, 30);
		add(24, "ledger", Type.WRITE_ACCEPTED, LockMode.EXCLUSIVE, 23, "");
		add(25, "ledger", Type.WRITE_REFUSED, LockMode.EXCLUSIVE, 12, "");
		HistoryChecker.check(this.history).assertSafe();
		add(26, "ledger", Type.WRITE_ACCEPTED, LockMode.EXCLUSIVE, 12, "");
		assertThat(HistoryChecker.check(this.history).violations()).singleElement()
			.asString()
			.isEqualTo("Stale write accepted on 'orders/42': token 12 of ledger/w0 after token 23 of ledger/w0");
	}

	@Test
	void shouldCountFailuresAndReleasesThatFoundTheLockLost() {
		hold("app-1", LockMode.EXCLUSIVE, 10, 11, 12, 20);
		add(21, "app-1", Type.RELEASED, LockMode.EXCLUSIVE, 12, "LOST");
		add(22, "app-2", Type.ACQUIRING, LockMode.EXCLUSIVE, 0, "");
		add(23, "app-2", Type.FAILED, LockMode.EXCLUSIVE, 0, "timeout");
		CheckResult result = HistoryChecker.check(this.history);
		assertThat(result.lostOnRelease()).isEqualTo(1);
		assertThat(result.acquireFailures()).isEqualTo(1);
	}

	private void hold(String holder, LockMode mode, long acquiring, long granted, long token, long releasing) {
		add(acquiring, holder, Type.ACQUIRING, mode, 0, "");
		add(granted, holder, Type.GRANTED, mode, token, "");
		add(releasing, holder, Type.RELEASING, mode, token, "");
		add(releasing + 1, holder, Type.RELEASED, mode, token, "RELEASED");
	}

	private void hold(String holder, String lockPath, LockMode mode, long acquiring, long granted, long token,
			long releasing) {
		add(acquiring, holder, Type.ACQUIRING, lockPath, mode, 0);
		add(granted, holder, Type.GRANTED, lockPath, mode, token);
		add(releasing, holder, Type.RELEASING, lockPath, mode, token);
	}

	private void add(long millis, String holder, Type type, LockMode mode, long token, String detail) {
		this.history.add(new LockEvent(millis * 1_000_000, holder, "w0", type, PATH, mode, token, detail));
	}

	private void add(long millis, String holder, Type type, String lockPath, LockMode mode, long token) {
		this.history.add(new LockEvent(millis * 1_000_000, holder, "w0", type, lockPath, mode, token, ""));
	}

}
