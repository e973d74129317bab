package io.zklock.sample.demo;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.zklock.sample.inventory.ReservationResponse;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DemoSummary}.
 */
class DemoSummaryTests {

	@Test
	void shouldFindNoLostUpdateOrOversellWhenStockMatchesAcceptedUnits() {
		List<ReservationOutcome> outcomes = List.of(answer("a", 3, true, 7, 10L, 100), answer("a", 5, true, 2, 11L, 300),
				answer("a", 3, false, 2, 12L, 200), answer("b", 1, true, 4, 13L, 400),
				ReservationOutcome.failed("instance-2", "b", 2, 503, "lock wait ran out"));
		DemoSummary summary = DemoSummary.of(true, outcomes, stock(10, 5), stock(2, 4), 0, Duration.ofSeconds(1));
		assertThat(summary.requests()).isEqualTo(5);
		assertThat(summary.accepted()).isEqualTo(3);
		assertThat(summary.refused()).isEqualTo(1);
		assertThat(summary.failed()).isEqualTo(1);
		assertThat(summary.unitsAccepted()).isEqualTo(9);
		assertThat(summary.unitsDemanded()).isEqualTo(14);
		assertThat(summary.lostUpdates()).isZero();
		assertThat(summary.oversold()).isZero();
		assertThat(summary.lockWaitMicros(50)).isEqualTo(200);
		assertThat(summary.lockWaitMicros(99)).isEqualTo(400);
		assertThat(summary.tokenOrder().passed()).isTrue();
		assertThat(summary.safe()).isTrue();
		assertThat(print(summary)).contains("SAFETY CHECK PASSED")
			.contains("first failure     instance-2 b -> 503: lock wait ran out");
	}

	@Test
	void shouldCountLostUpdatesAndOversoldUnitsWithoutLocking() {
		// both read 4 and wrote 4 - 3 = 1: one update lost, and 6 units sold from 4
		List<ReservationOutcome> outcomes = List.of(answer("a", 3, true, 1, null, 5), answer("a", 3, true, 1, null, 6));
		DemoSummary summary = DemoSummary.of(false, outcomes, stock(4), stock(1), 0, Duration.ofSeconds(1));
		assertThat(summary.lines()).singleElement().satisfies((line) -> {
			assertThat(line.removed()).isEqualTo(3);
			assertThat(line.lost()).isEqualTo(3);
			assertThat(line.oversold()).isEqualTo(2);
		});
		assertThat(summary.lostUpdates()).isEqualTo(3);
		assertThat(summary.oversold()).isEqualTo(2);
		assertThat(summary.tokenOrder().applicable()).isFalse();
		assertThat(summary.safe()).isFalse();
		assertThat(print(summary)).contains("SAFETY CHECK FAILED: 3 units of lost updates, 2 units oversold")
			.contains("This is the control run");
	}

	@Test
	void shouldFailSafetyCheckOnFencingViolation() {
		List<ReservationOutcome> outcomes = List.of(answer("a", 1, true, 3, 10L, 5));
		DemoSummary summary = DemoSummary.of(true, outcomes, stock(4), stock(3), 1, Duration.ofSeconds(1));
		assertThat(summary.lostUpdates()).isZero();
		assertThat(summary.safe()).isFalse();
		assertThat(print(summary)).contains("1 fencing violations");
	}

	@Test
	void shouldUseTheNearestRankForPercentiles() {
		Percentiles percentiles = Percentiles.of(new long[] { 5, 1, 4, 2, 3, 6, 7, 8, 9, 10 });
		assertThat(percentiles.count()).isEqualTo(10);
		assertThat(percentiles.get(50)).isEqualTo(5);
		assertThat(percentiles.get(99)).isEqualTo(10);
		assertThat(percentiles.get(10)).isEqualTo(1);
		assertThat(Percentiles.of(new long[0]).get(50)).isZero();
	}

	static ReservationOutcome answer(String sku, int quantity, boolean accepted, int remaining, Long token,
			long waitMicros) {
		return ReservationOutcome.answered("instance-1",
				new ReservationResponse(sku, quantity, accepted, remaining, token, waitMicros));
	}

	private static Map<String, Integer> stock(int... units) {
		Map<String, Integer> stock = new LinkedHashMap<>();
		for (int i = 0; i < units.length; i++) {
			stock.put(String.valueOf((char) ('a' + i)), units[i]);
		}
		return stock;
	}

	private static String print(DemoSummary summary) {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		summary.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
		return bytes.toString(StandardCharsets.UTF_8);
	}

}
