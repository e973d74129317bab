package io.zklock.autoconfigure;

import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link UnresolvedPlaceholderCheck#unresolvedPlaceholder}: placeholders resolved as
 * Spring Boot's binder resolves them, so that only one that resolves to nothing fails.
 */
class UnresolvedPlaceholderCheckTests {

	private final StandardEnvironment environment = new StandardEnvironment();

	UnresolvedPlaceholderCheckTests() {
		this.environment.getPropertySources()
			.addFirst(new MapPropertySource("test", Map.of("team", "ops", "nested", "${missing.inner}",
					"zklock.instance-id", "app-1")));
	}

	@Test
	void shouldNameAPlaceholderThatNothingResolves() {
		assertThat(unresolved("${ZK_LOCK_TEST_CREDENTIALS_UNSET}")).isEqualTo("${ZK_LOCK_TEST_CREDENTIALS_UNSET}");
		assertThat(unresolved("app:${ZK_LOCK_TEST_PASSWORD_UNSET}")).isEqualTo("${ZK_LOCK_TEST_PASSWORD_UNSET}");
	}

	@Test
	void shouldAcceptValuesWhosePlaceholdersResolve() {
		assertThat(unresolved("zk1:2181")).isNull();
		assertThat(unresolved("/locks/${team}")).isNull();
		assertThat(unresolved("${ZK_LOCK_TEST_UNSET:zk1:2181}")).as("a default").isNull();
		assertThat(unresolved("${ZK_LOCK_TEST_UNSET:}")).as("an empty default").isNull();
		assertThat(unresolved("\\${literal}")).as("an escaped placeholder").isNull();
		assertThat(unresolved("${zklock.instance-id}-${team}")).isNull();
	}

	@Test
	void shouldNameTheInnermostPlaceholderThatResolvesToNothing() {
		assertThat(unresolved("${ZK_LOCK_TEST_UNSET:${ZK_LOCK_TEST_FALLBACK_UNSET}}"))
			.isEqualTo("${ZK_LOCK_TEST_FALLBACK_UNSET}");
		assertThat(unresolved("${nested}")).as("a value that holds a placeholder").isEqualTo("${missing.inner}");
		assertThat(unresolved("${team}/${ZK_LOCK_TEST_SECOND_UNSET}")).isEqualTo("${ZK_LOCK_TEST_SECOND_UNSET}");
	}

	private String unresolved(String value) {
		return UnresolvedPlaceholderCheck.unresolvedPlaceholder(value, this.environment);
	}

}
