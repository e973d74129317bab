package io.zklock.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Property values that Curator or ZooKeeper would refuse with a bare exception, or would use in
 * a way nobody means, fail start-up naming the property, the value and the fix:
 * {@link ZkLockPropertyFailureAnalyzer} turns each into a failure analysis
 * ({@code ZkLockStartupFailureTests} shows one whole). Before, {@code zklock.zookeeper.namespace=/bad}
 * failed with Curator's {@code IllegalArgumentException: Invalid namespace: /bad, Invalid path
 * string "//bad" caused by empty node name specified @1} inside two {@code BeanCreationException}s;
 * a zero session timeout waited out {@code block-until-connected} and blamed the ensemble.
 */
@Timeout(60)
class ZkLockPropertyValueTests extends ZkServerTest {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkLockAutoConfiguration.class))
		.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString());

	@Test
	void shouldNameANamespaceThatStartsOrEndsWithASlash() {
		assertInvalid("zklock.zookeeper.namespace=/bad", "Property zklock.zookeeper.namespace with value '/bad' is "
				+ "invalid: it starts with '/', and a namespace is a path below the ensemble's root written without a "
				+ "leading or trailing '/'; write 'bad'");
		assertInvalid("zklock.zookeeper.namespace=apps/orders/", "Property zklock.zookeeper.namespace with value "
				+ "'apps/orders/' is invalid: it ends with '/', and a namespace is a path below the ensemble's root "
				+ "written without a leading or trailing '/'; write 'apps/orders'");
	}

	@Test
	void shouldNameANamespaceZooKeeperRefuses() {
		assertInvalid("zklock.zookeeper.namespace=apps//orders", "Property zklock.zookeeper.namespace with value "
				+ "'apps//orders' is invalid: ZooKeeper refuses it as a path (Invalid path string \"/apps//orders\" "
				+ "caused by empty node name specified @6); write names separated by '/', without empty names, '.' or "
				+ "'..', such as 'zklock' or 'apps/orders', or leave it empty for none");
	}

	@Test
	void shouldRefuseZeroTimeouts() {
		assertInvalid("zklock.zookeeper.session-timeout=0s", "Property zklock.zookeeper.session-timeout with value "
				+ "'0s' is invalid: it is zero: a ZooKeeper session needs a timeout, and the client would never "
				+ "establish one; set a duration such as '60s'");
		assertInvalid("zklock.zookeeper.connection-timeout=0s", "Property zklock.zookeeper.connection-timeout with "
				+ "value '0s' is invalid: it is zero: every operation would fail at once whenever the connection "
				+ "drops; set a duration such as '15s'");
		assertInvalid("zklock.zookeeper.block-until-connected=0s", "Property zklock.zookeeper.block-until-connected "
				+ "with value '0s' is invalid: it is zero: start-up would give up before the first connection is "
				+ "made; set a duration such as '30s'");
	}

	@Test
	void shouldRefuseRetrySettingsCuratorWouldNotFollow() {
		assertInvalid("zklock.zookeeper.retry.max-retries=100", "Property zklock.zookeeper.retry.max-retries with "
				+ "value '100' is invalid: it is more than 29, the most retries Curator's exponential back-off makes; "
				+ "set 29 or fewer");
		this.contextRunner
			.withPropertyValues("zklock.zookeeper.retry.base-sleep=10s", "zklock.zookeeper.retry.max-sleep=1s")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessage("Property zklock.zookeeper.retry.base-sleep with value '10s' is invalid: it is longer "
						+ "than zklock.zookeeper.retry.max-sleep (1s), which bounds every sleep between retries; set it "
						+ "shorter, such as '100ms'"));
	}

	@Test
	void shouldRefuseCredentialsWithoutAScheme() {
		this.contextRunner.withPropertyValues("zklock.zookeeper.auth.scheme=", "zklock.zookeeper.auth.credentials=a:b")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessage("Property zklock.zookeeper.auth.scheme with value '' is invalid: it is empty, and "
						+ "zklock.zookeeper.auth.credentials needs a scheme; set one, such as 'digest' (the default)"));
	}

	@Test
	void shouldNameTheAuthenticationSchemeTheEnsembleRefuses() {
		this.contextRunner
			.withPropertyValues("zklock.zookeeper.auth.scheme=nonsense", "zklock.zookeeper.auth.credentials=a:b",
					"zklock.zookeeper.connection-timeout=2s")
			.run((context) -> {
				FailureAnalysis analysis = new ZkLockFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).isEqualTo("ZooKeeper refused to authenticate zklock's client "
						+ "with the scheme 'nonsense' of zklock.zookeeper.auth.scheme (AuthFailed) and ended its "
						+ "session: the ensemble does not support that scheme, or refuses the credentials.");
				assertThat(analysis.getAction()).isEqualTo("Set zklock.zookeeper.auth.scheme to a scheme the ensemble "
						+ "supports (such as 'digest', the default) and zklock.zookeeper.auth.credentials to credentials "
						+ "it accepts ('user:password' for digest).");
			});
	}

	private void assertInvalid(String property, String message) {
		this.contextRunner.withPropertyValues(property).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessage(message);
		});
	}

}
