package io.zklock.fault.check;

import java.util.ArrayList;
import java.util.List;

import io.zklock.fault.history.Event;
import io.zklock.fault.register.KeyStats;
import io.zklock.test.history.CheckResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fault suite's history as the published checker sees it, on hand-made histories in the
 * contenders' own words (the checker itself is tested in {@code zklock-test-history}): holds
 * begin at the worker's grant and end at its release, loss report or death, a reentrant
 * release keeps the hold, the register's decisions are its writes; and the register's figures
 * on top.
 */
@Timeout(10)
class FaultHistoryTests {

	private static final String PATH = "k";

	private final List<Event> history = new ArrayList<>();

	@Test
	void shouldAcceptSequentialHoldsWithIncreasingTokensAndAReentrantRelease() {
		hold("c1", 10, 11, 12, 20);
		hold("c2", 13, 21, 22, 30);
		reentrant("c2", 23, 22);
		CheckResult result = FaultHistory.check(this.history, PATH).assertSafe();
		assertThat(result.grants()).isEqualTo(2);
		assertThat(result.reentrantGrants()).isEqualTo(1);
	}

	@Test
	void shouldReportTwoHoldsAtOnceAsAnOverlapNamingTheContenders() {
		hold("c1", 10, 11, 12, 20);
		hold("c2", 13, 15, 16, 30);
		CheckResult result = FaultHistory.check(this.history, PATH);
		assertThat(result.overlaps()).hasSize(1);
		assertThat(SafetyVerdict.problems(result, new KeyStats(PATH, 2, 16, 2, 2, 0, 0), true))
			.anyMatch((p) -> p.startsWith("1 pair(s) of grants held at the same time"))
			.anyMatch((p) -> p.contains("token 12 by c1 on thread 'w0'") && p.contains("token 16 by c2 on thread 'w0'"));
	}

	@Test
	void shouldReportASmallerTokenAfterALargerGrantReturned() {
		hold("c1", 10, 11, 50, 20);
		hold("c2", 21, 22, 40, 30);
		assertThat(FaultHistory.check(this.history, PATH).violations()).singleElement()
			.asString()
			.startsWith("Token order");
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
		CheckResult result = FaultHistory.check(this.history, PATH);
		assertThat(result.overlaps()).as("c1 held until LOST, overlapping c2").hasSize(1);
		assertThat(result.overlapsUntilDoubt()).as("c1 held only until IN_DOUBT").isEmpty();
	}

	@Test
	void shouldReportStaleWritesAcceptedAndLostUpdates() {
		hold("c1", 10, 11, 12, 20);
		hold("c2", 21, 22, 23, 30);
		add(24, "register", "-", "write", "accepted", 23, "1");
		add(25, "register", "-", "write", "rejected", 12, "1");
		CheckResult result = FaultHistory.check(this.history, PATH);
		assertThat(SafetyVerdict.problems(result, new KeyStats(PATH, 1, 23, 2, 1, 1, 0), true)).isEmpty();
		add(26, "register", "-", "write", "accepted-stale", 12, "2");
		result = FaultHistory.check(this.history, PATH);
		assertThat(SafetyVerdict.problems(result, new KeyStats(PATH, 5, 23, 7, 6, 0, 1), true))
			.anyMatch((p) -> p.startsWith("Stale write accepted on 'k': token 12"))
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
		add(at, process, "w0", "ok", "release", token, "STILL_HELD");
	}

	private void add(long nanos, String process, String thread, String type, String f, long token, String detail) {
		this.history.add(new Event(nanos, process, thread, type, f, type.equals("died") ? "-" : PATH, token, detail));
		this.history.sort(java.util.Comparator.comparingLong(Event::nanos));
	}

}
