package io.zklock.sample.demo;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static io.zklock.sample.demo.DemoSummaryTests.answer;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link TokenOrderCheck}.
 */
class TokenOrderCheckTests {

	@Test
	void shouldPassWhenAnswersInTokenOrderReplayTheStock() {
		// answers arrive out of order; by token: 10 takes 2 (8 left), 11 takes 3 (5), 12 wants 6 (refused)
		TokenOrderCheck check = TokenOrderCheck.of(List.of(answer("a", 6, false, 5, 12L, 0),
				answer("a", 2, true, 8, 10L, 0), answer("a", 3, true, 5, 11L, 0), answer("b", 1, true, 0, 3L, 0)),
				Map.of("a", 10, "b", 1));
		assertThat(check.applicable()).isTrue();
		assertThat(check.grants()).isEqualTo(4);
		assertThat(check.passed()).isTrue();
	}

	@Test
	void shouldFailOnTokenGrantedTwice() {
		TokenOrderCheck check = TokenOrderCheck.of(List.of(answer("a", 1, true, 9, 10L, 0),
				answer("a", 1, true, 8, 10L, 0)), Map.of("a", 10));
		assertThat(check.passed()).isFalse();
		assertThat(check.problem()).isEqualTo("a: fencing token 10 was granted twice");
	}

	@Test
	void shouldFailWhenStockDoesNotFollowTokenOrder() {
		// a lost update: both saw 10, yet the smaller token's write was overwritten
		TokenOrderCheck check = TokenOrderCheck.of(List.of(answer("a", 1, true, 9, 10L, 0),
				answer("a", 2, true, 8, 11L, 0)), Map.of("a", 10));
		assertThat(check.passed()).isFalse();
		assertThat(check.problem()).startsWith("a: the reservation with token 11 (2 units, accepted, 8 left)");
	}

	@Test
	void shouldFailWhenRefusedDespiteEnoughStock() {
		TokenOrderCheck check = TokenOrderCheck.of(List.of(answer("a", 2, false, 10, 10L, 0)), Map.of("a", 10));
		assertThat(check.passed()).isFalse();
	}

	@Test
	void shouldNotApplyWithoutTokens() {
		TokenOrderCheck check = TokenOrderCheck.of(List.of(answer("a", 1, true, 9, null, 0)), Map.of("a", 10));
		assertThat(check.applicable()).isFalse();
		assertThat(check.passed()).isFalse();
	}

}
