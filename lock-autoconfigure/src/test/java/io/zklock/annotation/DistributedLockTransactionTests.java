package io.zklock.annotation;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.sql.DataSource;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.zklock.fixtures.Sessions;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockLostException;
import io.zklock.lock.LockState;
import io.zklock.lock.LockEngine;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.DefaultTransactionStatus;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests that {@link DistributedLock} wraps {@link Transactional} on the same method: the
 * lock is taken before the transaction begins and released after it commits or rolls back.
 */
@Timeout(60)
@ExtendWith(OutputCaptureExtension.class)
@Tag("slow")
class DistributedLockTransactionTests extends ZkAnnotationTest {

	private static final String ACCOUNT = "a1";

	private final ApplicationContextRunner contextRunner = lockingContext()
		.withUserConfiguration(TransactionConfiguration.class, TransactionBeans.class);

	@AfterEach
	void clearPath() {
		AccountService.currentPath.remove();
	}

	@Test
	void shouldBeginAndCommitWhileLockIsHeld() {
		this.contextRunner.run((context) -> {
			AccountService service = context.getBean(AccountService.class);
			Events events = context.getBean(Events.class);
			AccountService.currentPath.set("accounts/" + ACCOUNT);
			service.deposit(ACCOUNT, 10, false);
			assertThat(events.list()).containsExactly("begin lockHeld=true", "committed lockHeld=true");
			assertThat(context.getBean(ILockByCurator.class).isHeldByCurrentThread("accounts/" + ACCOUNT)).isFalse();
			assertThat(context.getBean(JdbcTemplate.class)
				.queryForObject("select sum(amount) from deposit where account = '" + ACCOUNT + "'", Integer.class)).isEqualTo(10);
		});
	}

	@Test
	void shouldRollBackWhileLockIsHeldThenRelease() {
		this.contextRunner.run((context) -> {
			AccountService service = context.getBean(AccountService.class);
			Events events = context.getBean(Events.class);
			AccountService.currentPath.set("accounts/" + ACCOUNT);
			assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> service.deposit(ACCOUNT, 10, true));
			assertThat(events.list()).containsExactly("begin lockHeld=true", "rolled back lockHeld=true");
			assertThat(context.getBean(ILockByCurator.class).isHeldByCurrentThread("accounts/" + ACCOUNT)).isFalse();
			assertThat(context.getBean(JdbcTemplate.class)
				.queryForObject("select count(*) from deposit where account = '" + ACCOUNT + "'", Integer.class)).isZero();
		});
	}

	@Test
	void shouldReleaseLockWhenCommitFails() {
		this.contextRunner.run((context) -> {
			AccountService service = context.getBean(AccountService.class);
			Events events = context.getBean(Events.class);
			AccountService.currentPath.set("accounts/" + ACCOUNT);
			context.getBean(RecordingTransactionManager.class).failNextCommit = true;
			assertThatExceptionOfType(TransactionSystemException.class)
				.isThrownBy(() -> service.deposit(ACCOUNT, 10, false));
			assertThat(events.list()).containsExactly("begin lockHeld=true", "commit failed lockHeld=true",
					"unknown lockHeld=true");
			assertThat(context.getBean(ILockByCurator.class).isHeldByCurrentThread("accounts/" + ACCOUNT)).isFalse();
		});
	}

	@Test
	void shouldWarnAboutATransactionAdvisorOutsideTheLockAndStillReleaseAfterTheCommit(CapturedOutput output) {
		lockingContext().withPropertyValues("zklock.aspect-order=100")
			.withUserConfiguration(TransactionOutsideConfiguration.class, TransactionBeans.class)
			.run((context) -> {
				AccountService.currentPath.set("accounts/" + ACCOUNT);
				context.getBean(AccountService.class).deposit(ACCOUNT, 10, false);
				// the transaction began before the lock, but the lock, having joined it, waits for its end
				assertThat(context.getBean(Events.class).list()).containsExactly("begin lockHeld=false",
						"committed lockHeld=true");
				assertThat(context.getBean(ILockByCurator.class).isHeldByCurrentThread("accounts/" + ACCOUNT)).isFalse();
			});
		assertThat(output).containsOnlyOnce("The transaction advisor's order (0)")
			.contains("zklock.aspect-order=100")
			.contains("Set zklock.aspect-order lower than 0");
	}

	@Test
	void shouldReleaseBeforeTheCommitWithoutReleaseAfterTransaction() {
		lockingContext().withPropertyValues("zklock.aspect-order=100", "zklock.release-after-transaction=false")
			.withUserConfiguration(TransactionOutsideConfiguration.class, TransactionBeans.class)
			.run((context) -> {
				AccountService.currentPath.set("accounts/" + ACCOUNT);
				context.getBean(AccountService.class).deposit(ACCOUNT, 10, false);
				assertThat(context.getBean(Events.class).list()).containsExactly("begin lockHeld=false",
						"committed lockHeld=false");
			});
	}

	@Test
	void shouldReleaseALockTakenInsideAnOuterTransactionAfterItCommits() {
		this.contextRunner.run((context) -> {
			AccountService.currentPath.set("accounts/" + ACCOUNT);
			Events events = context.getBean(Events.class);
			context.getBean(OuterService.class).transfer(ACCOUNT, false);
			assertThat(events.list()).containsExactly("begin lockHeld=false", "inner returned lockHeld=true",
					"committed lockHeld=true");
			assertThat(context.getBean(ILockByCurator.class).isHeldByCurrentThread("accounts/" + ACCOUNT)).isFalse();
		});
	}

	@Test
	void shouldReleaseALockTakenInsideAnOuterTransactionAfterItRollsBack() {
		this.contextRunner.run((context) -> {
			AccountService.currentPath.set("accounts/" + ACCOUNT);
			Events events = context.getBean(Events.class);
			assertThatExceptionOfType(IllegalStateException.class)
				.isThrownBy(() -> context.getBean(OuterService.class).transfer(ACCOUNT, true));
			assertThat(events.list()).containsExactly("begin lockHeld=false", "inner returned lockHeld=true",
					"rolled back lockHeld=true");
			assertThat(context.getBean(ILockByCurator.class).isHeldByCurrentThread("accounts/" + ACCOUNT)).isFalse();
		});
	}

	@Test
	void shouldRollBackAJoinedTransactionWhoseLockWasLostBeforeTheCommit() {
		this.contextRunner.run((context) -> {
			AccountService.currentPath.set("accounts/" + ACCOUNT);
			LockEngine engine = context.getBean(LockEngine.class);
			CuratorFramework client = context.getBean(CuratorFramework.class);
			Runnable loseTheLock = () -> {
				try {
					Sessions.expire(client, server.getConnectString());
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
				await().atMost(Duration.ofSeconds(20)).until(() -> engine.getHeldLocks().stream()
					.anyMatch((held) -> held.lockPath().equals("accounts/" + ACCOUNT) && held.state() == LockState.LOST));
			};
			assertThatExceptionOfType(LockLostException.class)
				.isThrownBy(() -> context.getBean(OuterService.class).transferThen(ACCOUNT, loseTheLock))
				.withMessageContaining("'accounts/" + ACCOUNT + "'")
				.withMessageContaining("rolled back");
			assertThat(context.getBean(Events.class).list()).containsExactly("begin lockHeld=false",
					"rolled back lockHeld=true");
			assertThat(context.getBean(JdbcTemplate.class)
				.queryForObject("select count(*) from deposit where account = '" + ACCOUNT + "'", Integer.class))
				.as("nothing committed under a lost lock").isZero();
			assertThat(engine.getHeldLocks()).isEmpty();
		});
	}

	static class OuterService {

		private final AccountService accounts;

		private final Events events;

		private final ObjectProvider<ILockByCurator> locks;

		OuterService(AccountService accounts, Events events, ObjectProvider<ILockByCurator> locks) {
			this.accounts = accounts;
			this.events = events;
			this.locks = locks;
		}

		@Transactional
		public void transferThen(String account, Runnable beforeCommit) {
			this.accounts.deposit(account, 5, false);
			beforeCommit.run();
		}

		@Transactional
		public void transfer(String account, boolean fail) {
			this.accounts.deposit(account, 5, false);
			this.events.add("inner returned lockHeld="
					+ this.locks.getObject().isHeldByCurrentThread("accounts/" + account));
			if (fail) {
				throw new IllegalStateException("transfer failed on purpose");
			}
		}

	}

	static class Events {

		private final List<String> events = new CopyOnWriteArrayList<>();

		void add(String event) {
			this.events.add(event);
		}

		List<String> list() {
			return this.events;
		}

	}

	static class RecordingTransactionManager extends DataSourceTransactionManager {

		private final Events events;

		private final ObjectProvider<ILockByCurator> locks;

		volatile boolean failNextCommit;

		RecordingTransactionManager(DataSource dataSource, Events events, ObjectProvider<ILockByCurator> locks) {
			super(dataSource);
			this.events = events;
			this.locks = locks;
		}

		@Override
		protected void doBegin(Object transaction, TransactionDefinition definition) {
			this.events.add("begin lockHeld=" + lockHeld());
			super.doBegin(transaction, definition);
		}

		@Override
		protected void doCommit(DefaultTransactionStatus status) {
			if (this.failNextCommit) {
				this.failNextCommit = false;
				this.events.add("commit failed lockHeld=" + lockHeld());
				throw new TransactionSystemException("commit failed on purpose");
			}
			super.doCommit(status);
		}

		private boolean lockHeld() {
			String path = AccountService.currentPath.get();
			return path != null && this.locks.getObject().isHeldByCurrentThread(path);
		}

	}

	static class AccountService {

		static final ThreadLocal<String> currentPath = new ThreadLocal<>();

		private final JdbcTemplate jdbc;

		private final Events events;

		private final ObjectProvider<ILockByCurator> locks;

		AccountService(JdbcTemplate jdbc, Events events, ObjectProvider<ILockByCurator> locks) {
			this.jdbc = jdbc;
			this.events = events;
			this.locks = locks;
		}

		@DistributedLock(path = "accounts", key = "#account")
		@Transactional
		public void deposit(String account, int amount, boolean fail) {
			String path = "accounts/" + account;
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
				@Override
				public void afterCompletion(int status) {
					String outcome = switch (status) {
						case STATUS_COMMITTED -> "committed";
						case STATUS_ROLLED_BACK -> "rolled back";
						default -> "unknown";
					};
					AccountService.this.events
						.add(outcome + " lockHeld=" + AccountService.this.locks.getObject().isHeldByCurrentThread(path));
				}
			});
			this.jdbc.update("insert into deposit(account, amount) values (?, ?)", account, amount);
			if (fail) {
				throw new IllegalStateException("deposit failed on purpose");
			}
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement(proxyTargetClass = true)
	static class TransactionConfiguration {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement(proxyTargetClass = true, order = 0)
	static class TransactionOutsideConfiguration {

	}

	@Configuration(proxyBeanMethods = false)
	static class TransactionBeans {

		@Bean
		DataSource dataSource() {
			return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2)
				.generateUniqueName(true)
				.addScript("classpath:deposit-schema.sql")
				.build();
		}

		@Bean
		JdbcTemplate jdbcTemplate(DataSource dataSource) {
			return new JdbcTemplate(dataSource);
		}

		@Bean
		Events events() {
			return new Events();
		}

		@Bean
		RecordingTransactionManager transactionManager(DataSource dataSource, Events events,
				ObjectProvider<ILockByCurator> locks) {
			return new RecordingTransactionManager(dataSource, events, locks);
		}

		@Bean
		OuterService outerService(AccountService accounts, Events events, ObjectProvider<ILockByCurator> locks) {
			return new OuterService(accounts, events, locks);
		}

		@Bean
		AccountService accountService(JdbcTemplate jdbc, Events events, ObjectProvider<ILockByCurator> locks) {
			return new AccountService(jdbc, events, locks);
		}

	}

}
