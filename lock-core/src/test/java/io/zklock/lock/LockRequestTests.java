package io.zklock.lock;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * {@link LockRequest}'s hold bound: unset by default, kept through the other settings, and
 * refused with the bad value and the fix when it is not positive.
 */
class LockRequestTests {

	@Test
	void shouldHaveNoHoldBoundUnlessSet() {
		assertThat(LockRequest.of("orders/42", LockMode.EXCLUSIVE).maxHold()).isEmpty();
	}

	@Test
	void shouldKeepTheHoldBoundThroughTheOtherSettings() {
		LockRequest request = LockRequest.of("orders/42", LockMode.WRITE)
			.holdAtMost(Duration.ofMinutes(5))
			.waitAtMost(Duration.ofSeconds(2))
			.named("orders")
			.ownedBy(HoldOwner.THREAD)
			.uninterruptibly()
			.waitWithoutLimit();
		assertThat(request.maxHold()).contains(Duration.ofMinutes(5));
		assertThat(request).hasToString(
				"LockRequest[WRITE 'orders/42', no wait limit, THREAD-owned, uninterruptible, hold at most 5m]");
	}

	@Test
	void shouldRefuseAHoldBoundThatIsNotPositive() {
		LockRequest request = LockRequest.of("orders/42", LockMode.EXCLUSIVE);
		assertThatIllegalArgumentException().isThrownBy(() -> request.holdAtMost(Duration.ZERO))
			.withMessage("Hold bound 0s for lock path 'orders/42' is invalid: use a positive duration such as "
					+ "Duration.ofMinutes(5), or leave the hold unbounded");
		assertThatIllegalArgumentException().isThrownBy(() -> request.holdAtMost(Duration.ofMillis(-250)))
			.withMessageStartingWith("Hold bound -250ms for lock path 'orders/42' is invalid");
		assertThatIllegalArgumentException().isThrownBy(() -> request.holdAtMost(null))
			.withMessageStartingWith("Hold bound null for lock path 'orders/42' is invalid");
	}

}
