package io.zklock.annotation;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.endpoint.LocksEndpoint;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockEngine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Keys of annotated methods at call time, end to end: a key holding {@code '/'} is one lock
 * path segment, shown decoded by the {@code locks} endpoint; a key expression that throws
 * names itself, the method and the exception.
 */
@Timeout(60)
class LockKeyEvaluationTests extends ZkAnnotationTest {

	@Test
	void shouldLockAKeyWithASlashAsOneSegmentShownDecodedByTheEndpoint() {
		lockingContext().withBean(Shipments.class).run((context) -> {
			LocksEndpoint endpoint = new LocksEndpoint(context.getBean(LockEngine.class));
			String[] seen = context.getBean(Shipments.class)
				.ship("eu/42", () -> endpoint.heldLocks().locks().get(0).displayPath());
			assertThat(seen).containsExactly("shipments/eu%2F42", "shipments/eu/42");
		});
	}

	@Test
	void shouldNameTheKeyTheMethodAndTheExceptionWhenTheKeyThrows() {
		lockingContext().withBean(Shipments.class).run((context) -> assertThatIllegalArgumentException()
			.isThrownBy(() -> context.getBean(Shipments.class).track("x"))
			.withMessageStartingWith("Lock key '#id.substring(10, 1)' of @DistributedLock on Shipments.track(String) "
					+ "threw ")
			.withMessageContaining("StringIndexOutOfBoundsException")
			.withMessageContaining("(arguments [x])"));
	}

	static class Shipments {

		@DistributedLock(path = "shipments", key = "#id")
		public String[] ship(String id, java.util.function.Supplier<String> displayed) {
			LockHandle lock = LockContext.currentLock().orElseThrow();
			return new String[] { lock.lockPath(), displayed.get() };
		}

		@DistributedLock(path = "tracking", key = "#id.substring(10, 1)")
		public void track(String id) {
		}

	}

}
