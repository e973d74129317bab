package io.zklock.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.annotation.InvalidLockAnnotationException;
import io.zklock.annotation.LeaderOnly;
import io.zklock.autoconfigure.leadership.LeadershipTest;

import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bad {@link LeaderOnly} input fails start-up with a message naming the method and the fix
 * ({@link LeaderOnlyMethodsCheck}, the advisor's parsing; a final class: {@code ZkLockStartupFailureTests}):
 * a method that escaped the interceptor would run on every instance.
 */
@Timeout(60)
class LeaderOnlyMethodsCheckTests extends LeadershipTest {

	@Test
	void shouldFailOnARoleThatIsNotALockPath() {
		instance("a").withBean(InvalidRole.class).run((context) -> {
			assertThat(context).hasFailed();
			InvalidLockAnnotationException invalid = cause(context.getStartupFailure(),
					InvalidLockAnnotationException.class);
			assertThat(invalid.getDescription()).startsWith("@LeaderOnly on InvalidRole.close() has an invalid role "
					+ "'billing//close': ");
			assertThat(invalid.getAction()).isEqualTo("Write the role as a lock path under the leadership root "
					+ "(zklock.leadership.root-path=/leaders): '/'-separated non-empty names without '.' or '..', such "
					+ "as 'billing-close' or 'billing/close'.");
		});
	}

	@Test
	void shouldFailOnAPrimitiveReturnType() {
		instance("a").withBean(PrimitiveResult.class).run((context) -> {
			assertThat(context).hasFailed();
			InvalidLockAnnotationException invalid = cause(context.getStartupFailure(),
					InvalidLockAnnotationException.class);
			assertThat(invalid.getDescription()).isEqualTo("@LeaderOnly on PrimitiveResult.count() returns int, which "
					+ "has no empty value for the calls it skips while this instance does not lead role "
					+ "'billing-close'.");
			assertThat(invalid.getAction()).isEqualTo("Return its wrapper type (Integer) or an Optional, so that a "
					+ "skipped call can return null or Optional.empty().");
		});
	}

	@Test
	void shouldFailOnPrivateAndFinalMethods() {
		instance("a").withBean(PrivateAndFinal.class).run((context) -> {
			assertThat(context).hasFailed();
			ZkLockStartupException failure = startupFailure(context.getStartupFailure());
			assertThat(failure.getDescription()).startsWith("zklock cannot intercept these @LeaderOnly methods, so they "
					+ "would run on every instance, not only on the leader: ")
				.contains("PrivateAndFinal.hidden() is private, and a proxy cannot override it")
				.contains("PrivateAndFinal.sealed() is final, and a class-based proxy cannot override it")
				.doesNotContain("PrivateAndFinal.close()");
			assertThat(failure.getAction()).startsWith("Make @LeaderOnly methods public (or protected or "
					+ "package-private), neither static nor final,");
		});
	}

	@Test
	void shouldFailWhenLeadershipIsSwitchedOff() {
		instance("a").withBean(Closer.class).withPropertyValues("zklock.leadership.enabled=false").run((context) -> {
			assertThat(context).hasFailed();
			ZkLockStartupException failure = startupFailure(context.getStartupFailure());
			assertThat(failure.getDescription()).isEqualTo("zklock found 1 @LeaderOnly method (Closer.close()), but no "
					+ "LeaderOnlyAdvisor bean to intercept them: zklock's leadership auto-configuration "
					+ "(io.zklock.autoconfigure.leadership.LeadershipAutoConfiguration) did not run "
					+ "(zklock.leadership.enabled=false), so these methods would run on every instance.");
			assertThat(failure.getAction()).isEqualTo("Remove zklock.leadership.enabled=false, or "
					+ "LeadershipAutoConfiguration from the excluded auto-configurations; or remove @LeaderOnly from "
					+ "methods that may run on every instance.");
		});
	}

	@Test
	void shouldFailWithoutCurator() {
		instance("a").withBean(Closer.class)
			.withClassLoader(new FilteredClassLoader("org.apache.curator"))
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(startupFailure(context.getStartupFailure()).getDescription()).isEqualTo("zklock found 1 "
						+ "@LeaderOnly method (Closer.close()), but Curator (org.apache.curator:curator-recipes) is not on "
						+ "the class path, so zklock has no leader election and these methods would run on every "
						+ "instance.");
			});
	}

	private static <T extends Throwable> T cause(Throwable failure, Class<T> type) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (type.isInstance(cause)) {
				return type.cast(cause);
			}
		}
		throw new AssertionError("no " + type.getSimpleName() + " in the causes of " + failure, failure);
	}

	static class Closer {

		@LeaderOnly("billing-close")
		public void close() {
		}

	}

	static class InvalidRole {

		@LeaderOnly("billing//close")
		public void close() {
		}

	}

	static class PrimitiveResult {

		@LeaderOnly("billing-close")
		public int count() {
			return 1;
		}

	}

	static class PrivateAndFinal {

		@LeaderOnly("billing-close")
		public void close() {
			hidden();
		}

		@LeaderOnly("billing-close")
		private void hidden() {
		}

		@LeaderOnly("billing-close")
		public final void sealed() {
		}

	}

}
