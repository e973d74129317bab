package io.zklock.fault.check;

import java.util.ArrayList;
import java.util.List;

import io.zklock.fault.history.Event;
import io.zklock.fault.register.KeyStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checker on hand-made histories: it must pass a correct one and catch each kind of
 * violation, or the fault tests prove nothing.
 */
@Timeout(10)
class HistoryCheckerTests {

	private static final String PATH = "k";

	private final List<Event> history = new ArrayList<>();

	@Test
	void shouldAcceptSequentialHoldsWithIncreasingTokens() {
		hold("c1", 10, 11, 12, 20);
		hold("c2", 13, 21, 22, 30);
		reentrant("c2", 23, 22);
		CheckResult result = HistoryChecker.check(this.history, PATH);
		assertThat(result.violations()).isEmpty();
		assertThat(result.grants()).isEqualTo(2);
		assertThat(result.reentrantGrants()).isEqualTo(1);
		assertThat(result.overlaps()).isZero();
	}

	@Test
	void shouldReportTwoHoldsAtOnceAsAnOverlap() {
		hold("c1", 10, 11, 12, 20);
		hold("c2", 13, 15, 16, 30);
		assertThat(HistoryChecker.check(this.history, PATH).overlaps()).isEqualTo(1);
	}

	@Test
	void shouldReportATokenGrantedTwice() {
		hold("c1", 10, 11, 12, 20);
		hold("c2", 10, 21, 12, 30);
		assertThat(HistoryChecker.check(this.history, PATH).violations()).singleElement()
			.asString()
			.contains("granted twice");
	}

	@Test
	void shouldReportASmallerTokenAfterALargerGrantReturned() {
		hold("c1", 10, 11, 50, 20);
		hold("c2", 21, 22, 40, 30);
		assertThat(HistoryChecker.check(this.history, PATH).violations()).singleElement()
			.asString()
			.startsWith("Token order");
	}

	@Test
	void shouldLetConcurrentAcquiresReturnInEitherOrder() {
		// c2 began before c1's grant returned: its smaller token is no violation
		add(5, "c2", "w0", "invoke", "acquire", 0, "-");
		hold("c1", 6, 7, 50, 8);
		add(9, "c2", "w0", "ok", "acquire", 40, "-");
		add(12, "c2", "w0", "invoke", "release", 40, "-");
		assertThat(HistoryChecker.check(this.history, PATH).violations()).isEmpty();
	}

	@Test
	void shouldReportAReentrantAcquireWithAnotherToken() {
		hold("c1", 10, 11, 12, 20);
		reentrant("c1", 13, 99);
		assertThat(HistoryChecker.check(this.history, PATH).violations()).singleElement()
			.asString()
			.startsWith("Reentrant acquire");
	}

	@Test
	void shouldEndAHoldWhenReportedLostOrDeadAndEarlierWhenInDoubt() {
		add(10, "c1", "w0", "invoke", "acquire", 0, "-");
		add(11, "c1", "w0", "ok", "acquire", 12, "-");
		add(13, "c1", "w0", "lost", "lock", 12, "IN_DOUBT");
		add(20, "c1", "w0", "lost", "lock", 12, "LOST");
		hold("c2", 14, 15, 16, 18);
		add(21, "c3", "w0", "invoke", "acquire", 0, "-");
		add(22, "c3", "w0", "ok", "acquire", 17, "-");
		add(23, "c3", "-", "died", "kill", 0, "SIGKILL");
		hold("c4", 19, 24, 25, 30);
		CheckResult result = HistoryChecker.check(this.history, PATH);
		assertThat(result.overlaps()).as("c1 held until LOST, overlapping c2").isEqualTo(1);
		assertThat(result.overlapsUntilDoubt()).as("c1 held only until IN_DOUBT").isZero();
	}

	@Test
	void shouldReportStaleWritesAcceptedAndLostUpdates() {
		hold("c1", 10, 11, 12, 20);
		CheckResult result = HistoryChecker.check(this.history, PATH);
		assertThat(SafetyVerdict.problems(result, new KeyStats(PATH, 5, 12, 6, 5, 0, 0), true)).isEmpty();
		assertThat(SafetyVerdict.problems(result, new KeyStats(PATH, 5, 12, 7, 6, 0, 1), true))
			.anyMatch((p) -> p.contains("stale write(s) accepted"))
			.anyMatch((p) -> p.startsWith("Lost update"));
	}

	private void hold(String process, long invoke, long ok, long token, long release) {
		add(invoke, process, "w0", "invoke", "acquire", 0, "-");
		add(ok, process, "w0", "ok", "acquire", token, "-");
		add(release, process, "w0", "invoke", "release", token, "-");
		add(release + 1, process, "w0", "ok", "release", token, "RELEASED");
	}

	private void reentrant(String process, long at, long token) {
		add(at, process, "w0", "invoke", "acquire", 0, "reentrant");
		add(at, process, "w0", "ok", "acquire", token, "reentrant");
		add(at, process, "w0", "invoke", "release", token, "reentrant");
	}

	private void add(long nanos, String process, String thread, String type, String f, long token, String detail) {
		this.history.add(new Event(nanos, process, thread, type, f, type.equals("died") ? "-" : PATH, token, detail));
		this.history.sort(java.util.Comparator.comparingLong(Event::nanos));
	}

}
