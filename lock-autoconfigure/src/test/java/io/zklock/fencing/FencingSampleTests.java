package io.zklock.fencing;

import javax.sql.DataSource;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.autoconfigure.LockedMethodsAutoConfiguration;
import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.autoconfigure.ZkServerTest;
import io.zklock.lock.GuardedTransaction;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockLostException;
import io.zklock.lock.LockMode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The samples of docs/fencing.md, as written there, in an application with zklock's
 * auto-configuration, a real ZooKeeper server and an H2 database: an annotated transactional
 * method and a handle in a {@code TransactionTemplate} advance the token; a holder whose lock
 * has since passed to another writes in vain, in both forms (the token table and a token
 * column of one's own table); a znode written through {@link GuardedTransaction} only while
 * the lock node exists.
 */
@Timeout(60)
class FencingSampleTests extends ZkServerTest {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ZkLockAutoConfiguration.class,
				LockedMethodsAutoConfiguration.class))
		.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString())
		.withUserConfiguration(SampleConfiguration.class);

	@Test
	void shouldRefuseTheWriteOfAHolderWhoseLockPassedToAnother() {
		this.contextRunner.run((context) -> {
			Shipping shipping = context.getBean(Shipping.class);
			JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
			ILockByCurator locks = context.getBean(ILockByCurator.class);
			LockHandle old = locks.acquire("orders/42", LockMode.EXCLUSIVE);
			old.release(); // the old holder's lock is gone, as after a pause past its session
			shipping.ship(42);
			assertThat(new JdbcFencingTokens(jdbc).currentToken("orders/42").getAsLong())
				.isGreaterThan(old.fencingToken());
			assertThatExceptionOfType(StaleFencingTokenException.class)
				.isThrownBy(() -> shipping.cancelWith(old, 42))
				.withMessageContaining("for 'orders/42'");
			assertThat(jdbc.queryForObject("SELECT status FROM orders WHERE id = 42", String.class))
				.as("the stale holder's transaction rolled back").isEqualTo("SHIPPED");
			try (LockHandle lock = locks.acquire("orders/42", LockMode.EXCLUSIVE)) {
				assertThat(shipping.markPaid(lock, 42)).as("own column, newest token").isTrue();
			}
			assertThat(shipping.markPaid(old, 42)).as("own column, stale token").isFalse();
		});
	}

	@Test
	void shouldWriteZooKeeperOnlyWhileTheLockNodeExists() {
		this.contextRunner.run((context) -> {
			CuratorFramework client = context.getBean(CuratorFramework.class);
			client.create().creatingParentsIfNeeded().forPath("/config/pricing", bytes("v0"));
			PricingPublisher publisher = context.getBean(PricingPublisher.class);
			publisher.publish(bytes("v1"));
			assertThat(client.getData().forPath("/config/pricing")).asString().isEqualTo("v1");
			try (LockHandle lock = context.getBean(ILockByCurator.class).acquire("config/pricing", LockMode.EXCLUSIVE)) {
				client.delete().forPath(lock.nodePath()); // what the server does when the session expires
				assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> GuardedTransaction.commit(client,
						lock, client.transactionOp().setData().forPath("/config/pricing", bytes("stale"))));
			}
			assertThat(client.getData().forPath("/config/pricing")).asString().isEqualTo("v1");
		});
	}

	private static byte[] bytes(String text) {
		return text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement(proxyTargetClass = true)
	static class SampleConfiguration {

		@Bean
		DataSource dataSource() {
			return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2)
				.generateUniqueName(true)
				.addScript("classpath:io/zklock/fencing/schema.sql")
				.addScript("classpath:io/zklock/fencing/orders.sql")
				.build();
		}

		@Bean
		JdbcTemplate jdbcTemplate(DataSource dataSource) {
			return new JdbcTemplate(dataSource);
		}

		@Bean
		DataSourceTransactionManager transactionManager(DataSource dataSource) {
			return new DataSourceTransactionManager(dataSource);
		}

		@Bean
		Shipping shipping(JdbcTemplate jdbc, PlatformTransactionManager transactionManager) {
			return new Shipping(jdbc, transactionManager);
		}

		@Bean
		PricingPublisher pricingPublisher(CuratorFramework client) {
			return new PricingPublisher(client);
		}

	}

}
