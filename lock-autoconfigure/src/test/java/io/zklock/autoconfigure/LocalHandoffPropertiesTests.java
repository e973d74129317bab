package io.zklock.autoconfigure;

import java.time.Duration;

import io.zklock.lock.LockEngine;
import io.zklock.lock.internal.LocalHandoff;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code zklock.local-handoff.*} reaches the lock engine, with the engine's defaults, and a bad
 * value fails start-up naming the property.
 */
@Timeout(60)
class LocalHandoffPropertiesTests extends ZkServerTest {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkLockAutoConfiguration.class))
		.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString());

	@Test
	void shouldGiveTheEngineItsDefaults() {
		this.contextRunner.run((context) -> {
			// the engine says its setting in its toString() only: the setting itself is internal
			assertThat(context.getBean(LockEngine.class)).hasToString(
					"LockEngine[/locks, namespace " + context.getBean(CuratorFramework.class).getNamespace() + ", "
							+ LocalHandoff.defaults() + "]");
			ZkLockProperties.LocalHandoff properties = context.getBean(ZkLockProperties.class).getLocalHandoff();
			assertThat(properties.getMaxHandoffs()).isEqualTo(LocalHandoff.DEFAULT_MAX_HANDOFFS);
			assertThat(properties.getMaxTime()).isEqualTo(LocalHandoff.DEFAULT_MAX_TIME);
		});
	}

	@Test
	void shouldBindTheSwitchAndTheBounds() {
		this.contextRunner
			.withPropertyValues("zklock.local-handoff.enabled=true", "zklock.local-handoff.max-handoffs=8",
					"zklock.local-handoff.max-time=20ms")
			.run((context) -> assertThat(context.getBean(LockEngine.class).toString())
				.endsWith(", local handoff on (at most 8 handoffs, 20ms)]"));
		this.contextRunner.withPropertyValues("zklock.local-handoff.enabled=false")
			.run((context) -> assertThat(context.getBean(LockEngine.class).toString()).endsWith(", local handoff off]"));
	}

	@Test
	void shouldFailStartUpNamingABadBound() {
		this.contextRunner.withPropertyValues("zklock.local-handoff.max-handoffs=0").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("zklock.local-handoff.max-handoffs")
				.hasMessageContaining("at least 1");
		});
		this.contextRunner.withPropertyValues("zklock.local-handoff.max-time=0s").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("zklock.local-handoff.max-time")
				.hasMessageContaining("'0s'");
		});
	}

}
