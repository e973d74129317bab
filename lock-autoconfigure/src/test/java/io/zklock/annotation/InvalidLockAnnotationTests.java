package io.zklock.annotation;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the start-up errors of invalid annotations ({@link InvalidLockAnnotationException}):
 * each names the method and the bad value as written, and says what to write instead. How they
 * are printed is tested by {@code ZkLockStartupFailureTests}.
 */
@Timeout(60)
class InvalidLockAnnotationTests extends ZkAnnotationTest {

	@Test
	void shouldNameAWaitTimeThatIsNotADuration() {
		assertRefused(new Object() {
			@DistributedLock(path = "orders", waitTime = "soon")
			public void work() {
			}
		}, "has an invalid waitTime 'soon': it is not a duration.", "Write waitTime as a duration such as '5s'");
	}

	@Test
	void shouldNameANegativeWaitTimeAndWhatItResolvedTo() {
		InvalidLockAnnotationException failure = refused(new Object() {
			@DistributedLock(path = "orders", waitTime = "${orders.wait}")
			public void work() {
			}
		}, "orders.wait=-2s");
		assertThat(failure.getDescription()).endsWith("has a negative waitTime '${orders.wait}' (resolved to '-2s').");
		assertThat(failure.getAction()).isEqualTo("Use '0' to try once, or a positive duration such as '5s'.");
	}

	@Test
	void shouldNameAnUnresolvablePlaceholder() {
		assertRefused(new Object() {
			@DistributedLock(path = "orders", waitTime = "${orders.missing}")
			public void work() {
			}
		}, "has a waitTime '${orders.missing}' whose placeholder cannot be resolved",
				"give the placeholder a default such as '${orders.lock-wait:5s}'");
	}

	@Test
	void shouldNameAnInvalidKeyExpression() {
		assertRefused(new Object() {
			@DistributedLock(path = "orders", key = "#order.")
			public void work(Object order) {
			}
		}, "has an invalid key expression '#order.': ", "Write key as SpEL over the method's arguments");
	}

	@Test
	void shouldNameAnInvalidPath() {
		assertRefused(new Object() {
			@DistributedLock(path = "orders//x")
			public void work() {
			}
		}, "has an invalid path 'orders//x': Lock path 'orders//x' is invalid: empty segment",
				"Write path as '/'-separated non-empty names");
	}

	@Test
	void shouldRefuseSkipOnAPrimitiveReturnType() {
		assertRefused(new Object() {
			@DistributedLock(path = "counts", onFailure = OnLockFailure.SKIP)
			public long count() {
				return 0;
			}
		}, "has onFailure = SKIP but returns long, which has no empty value.",
				"Return its wrapper type (Long) or an Optional");
	}

	@Test
	void shouldRefuseBothAnnotationsOnOneMethod() {
		InvalidLockAnnotationException failure = refused(new Object() {
			@DistributedLock(path = "orders")
			@DistributedSemaphore(path = "reports", permits = 2)
			public void work() {
			}
		});
		assertThat(failure.getDescription()).endsWith(".work() carries both @DistributedLock and @DistributedSemaphore.");
		assertThat(failure.getAction()).startsWith("Keep one of them");
	}

	@Test
	void shouldRefuseASemaphoreWithoutPermits() {
		assertRefused(new Object() {
			@DistributedSemaphore(path = "reports", permits = 0)
			public void work() {
			}
		}, "has permits = 0.", "Set permits to 1 or more");
	}

	private void assertRefused(Object bean, String description, String action) {
		InvalidLockAnnotationException failure = refused(bean);
		assertThat(failure.getDescription()).contains(" on " + failure.getMethodDescription() + " ")
			.contains(description);
		assertThat(failure.getAction()).contains(action);
		assertThat(failure.getMessage()).isEqualTo(failure.getDescription() + " " + failure.getAction());
	}

	@SuppressWarnings("unchecked")
	private InvalidLockAnnotationException refused(Object bean, String... properties) {
		InvalidLockAnnotationException[] found = new InvalidLockAnnotationException[1];
		lockingContext().withPropertyValues(properties)
			.withBean("invalid", (Class<Object>) bean.getClass(), () -> bean)
			.run((context) -> {
				assertThat(context).hasFailed();
				for (Throwable cause = context.getStartupFailure(); cause != null; cause = cause.getCause()) {
					if (cause instanceof InvalidLockAnnotationException invalid) {
						found[0] = invalid;
					}
				}
			});
		assertThat(found[0]).as("an InvalidLockAnnotationException in the start-up failure").isNotNull();
		assertThat(found[0].getMethodDescription()).endsWith(")");
		return found[0];
	}

}
