package io.zklock.annotation;

import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * A lock key whose value holds a NUL or another control character is named with it escaped
 * in the engine's message on the lock path and in the interceptor's on the
 * key and the call's arguments: before, the latter printed the arguments raw, and a tab read as
 * blank space.
 */
@Timeout(60)
@Tag("slow")
class ControlCharacterKeyTests extends ZkAnnotationTest {

	private final ApplicationContextRunner contextRunner = lockingContext()
		.withUserConfiguration(KeyedConfiguration.class);

	@Test
	void shouldEscapeANulInTheLockPathOfAnEvaluatedKey() {
		this.contextRunner.run((context) -> assertThatIllegalArgumentException()
			.isThrownBy(() -> context.getBean(Keyed.class).ship("a\u0000b"))
			.withMessageStartingWith("Lock path 'orders/a\\u0000b' is invalid: ")
			.withMessageNotContaining("\u0000"));
	}

	@Test
	void shouldEscapeControlCharactersInTheArgumentsOfABadKey() {
		this.contextRunner.run((context) -> {
			assertThatIllegalArgumentException().isThrownBy(() -> context.getBean(Keyed.class).ship("\t"))
				.withMessage("Lock key '#id' of @DistributedLock on Keyed.ship(String) evaluated to a blank string; a "
						+ "lock key must name the locked resource (otherwise unrelated calls would share one lock) "
						+ "(arguments [\\t])");
			assertThatIllegalArgumentException()
				.isThrownBy(() -> context.getBean(Keyed.class).shipOne(List.of("a\u0000b", "c")))
				.withMessageContaining("evaluated to a collection [a\\u0000b, c]")
				.withMessageContaining("(arguments [[a\\u0000b, c]])")
				.withMessageNotContaining("\u0000");
		});
	}

	static class Keyed {

		@DistributedLock(path = "orders", key = "#id", waitTime = "300ms")
		public void ship(String id) {
		}

		@DistributedSemaphore(path = "slots", key = "#ids", permits = 2, waitTime = "300ms")
		public void shipOne(List<String> ids) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class KeyedConfiguration {

		@Bean
		Keyed keyed() {
			return new Keyed();
		}

	}

}
