package io.zklock.fault;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.zklock.fault.ensemble.InProcessEnsemble;
import io.zklock.fault.harness.ContenderProcess;
import io.zklock.fault.harness.FaultLab;
import io.zklock.fault.report.Figures;
import io.zklock.fencing.JdbcFencingTokens;
import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.GuardedTransaction;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockEngine;
import io.zklock.test.history.CheckResult;
import io.zklock.test.history.LockEvent.Type;
import io.zklock.test.history.LockHistory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.h2.tools.Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Test 8, the resource side of fencing under Kleppmann's pause: a holder JVM
 * ({@code FencedWriterMain}) takes the lock and is stopped ({@code SIGSTOP}) for two session
 * timeouts; its session expires, a rival takes the lock and writes; the holder resumes and
 * writes with its old token. Two resources: a database (H2 on loopback TCP), where
 * {@link JdbcFencingTokens} refuses the late write, and a znode, where
 * {@link GuardedTransaction} (the write behind a check of the holder's lock node) refuses it.
 * The unfenced controls write the same without the helpers and accept the stale write. The
 * writes each resource took are also judged by zklock's history checker, which flags the
 * controls' stale writes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ResourceFencingPauseTests {

	private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(3);

	private FaultLab lab;

	private Server database;

	private Connection keepAlive;

	private JdbcTemplate jdbc;

	private TransactionTemplate transactions;

	private JdbcFencingTokens fencing;

	private final ExecutorService safeService = Executors.newSingleThreadExecutor();

	private CuratorFramework rivalClient;

	private LockEngine rival;

	private ContenderProcess holder;

	@BeforeAll
	void start() throws Exception {
		this.lab = new FaultLab("8-resource-fencing", new InProcessEnsemble(3), SESSION_TIMEOUT);
		this.database = Server.createTcpServer("-tcpPort", "0").start();
		String local = "jdbc:h2:mem:fencing;DB_CLOSE_DELAY=-1";
		this.keepAlive = DriverManager.getConnection(local);
		DriverManagerDataSource dataSource = new DriverManagerDataSource(local);
		this.jdbc = new JdbcTemplate(dataSource);
		this.transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
		this.jdbc.execute(new String(getClass().getResourceAsStream("/io/zklock/fencing/schema.sql").readAllBytes()));
		this.jdbc.execute("CREATE TABLE ledger (id BIGINT AUTO_INCREMENT PRIMARY KEY, resource VARCHAR(512), "
				+ "fencing_token BIGINT, note VARCHAR(100))");
		this.fencing = new JdbcFencingTokens(this.jdbc);
		String remote = "jdbc:h2:tcp://127.0.0.1:" + this.database.getPort() + "/mem:fencing";
		this.holder = ContenderProcess.start("holder", "io.zklock.fault.fencing.FencedWriterMain",
				List.of("holder", this.lab.ensemble().connectString(), Long.toString(SESSION_TIMEOUT.toMillis()), remote),
				this.lab.history(), this.lab.outputDir());
		this.rivalClient = CuratorFrameworkFactory.builder()
			.connectString(this.lab.ensemble().connectString())
			.namespace("zklock")
			.sessionTimeoutMs((int) SESSION_TIMEOUT.toMillis())
			.retryPolicy(new RetryNTimes(3, 100))
			.ensembleTracker(false)
			.runSafeService(this.safeService)
			.build();
		this.rivalClient.start();
		assertThat(this.rivalClient.blockUntilConnected(10, TimeUnit.SECONDS)).as("rival connected").isTrue();
		this.rival = new LockEngine(this.rivalClient, "/locks");
	}

	@AfterAll
	void stop() throws Exception {
		if (this.holder != null) {
			this.holder.close();
		}
		if (this.rival != null) {
			this.rival.close();
		}
		if (this.rivalClient != null) {
			this.rivalClient.close();
		}
		this.safeService.shutdownNow();
		if (this.keepAlive != null) {
			this.keepAlive.close();
		}
		if (this.database != null) {
			this.database.stop();
		}
		this.lab.close();
	}

	@Test
	@Order(1)
	void shouldAcceptThePausedHoldersStaleWriteWithoutFencing() throws Exception {
		Outcome outcome = pauseTest("fencing/jdbc-unfenced", Resource.JDBC, false);
		assertThat(outcome.lateWrite()).as("the paused holder's late write, unfenced").isEqualTo("accepted");
		assertThat(outcome.state()).as("the ledger").containsExactly("holder-early", "rival", "holder-late");
		assertThat(outcome.history().violations()).as("what the history checker finds")
			.singleElement()
			.asString()
			.startsWith("Stale write accepted on 'fencing/jdbc-unfenced': token " + outcome.holderToken());
	}

	@Test
	@Order(2)
	void shouldRefuseThePausedHoldersStaleWriteWithJdbcFencingTokens() throws Exception {
		Outcome outcome = pauseTest("fencing/jdbc", Resource.JDBC, true);
		assertThat(outcome.lateWrite()).as("the paused holder's late write, fenced").isEqualTo("refused");
		assertThat(outcome.state()).as("the ledger").containsExactly("holder-early", "rival");
		assertThat(this.fencing.currentToken("fencing/jdbc")).hasValue(outcome.rivalToken());
		outcome.history().assertFenced();
	}

	@Test
	@Order(3)
	void shouldAcceptThePausedHoldersStaleZooKeeperWriteWithoutTheLockCheck() throws Exception {
		createDataNode("fencing/zk-unfenced");
		Outcome outcome = pauseTest("fencing/zk-unfenced", Resource.ZOOKEEPER, false);
		assertThat(outcome.lateWrite()).as("the paused holder's late setData, unguarded").isEqualTo("accepted");
		assertThat(outcome.state()).as("the znode's data").containsExactly("holder-late");
		assertThat(outcome.history().violations()).as("what the history checker finds")
			.singleElement()
			.asString()
			.startsWith("Stale write accepted on 'fencing/zk-unfenced': token " + outcome.holderToken());
	}

	@Test
	@Order(4)
	void shouldRefuseThePausedHoldersStaleZooKeeperWriteWithGuardedTransaction() throws Exception {
		createDataNode("fencing/zk");
		Outcome outcome = pauseTest("fencing/zk", Resource.ZOOKEEPER, true);
		assertThat(outcome.lateWrite()).as("the paused holder's late setData, guarded by its lock node")
			.isEqualTo("refused");
		assertThat(outcome.state()).as("the znode's data").containsExactly("rival");
		outcome.history().assertFenced();
	}

	private void createDataNode(String lockPath) throws Exception {
		this.rivalClient.create().creatingParentsIfNeeded().forPath(Resource.znode(lockPath));
	}

	/**
	 * Holder takes the lock and writes; it is paused for two session timeouts; the rival takes
	 * the lock and writes; the holder resumes and writes again with its old token.
	 */
	private Outcome pauseTest(String lockPath, Resource resource, boolean fenced) throws Exception {
		String mode = fenced ? "fenced" : "unfenced";
		Figures figures = new Figures("8 SIGSTOP holder, " + resource.name() + " "
				+ (fenced ? "fenced" : "UNFENCED control")).ensemble(this.lab.ensemble().description());
		LockHistory writes = new LockHistory();
		try {
			long holderToken = Long.parseLong(this.holder.call("hold " + lockPath, "held", Duration.ofSeconds(30)).trim());
			record(writes, "holder", lockPath, holderToken, this.holder
				.call(resource.command(mode, lockPath, "holder-early"), "wrote", Duration.ofSeconds(30))
				.trim());

			long pausedAt = System.nanoTime();
			this.holder.pause();
			figures.fault("SIGSTOP holder");
			long rivalToken;
			try (LockHandle lock = new ExclusiveLockByCurator(this.rival)
				.tryAcquire(lockPath, LockMode.EXCLUSIVE, SESSION_TIMEOUT.multipliedBy(4))
				.orElseThrow(() -> new AssertionError("the rival never got the lock of the paused holder"))) {
				rivalToken = lock.fencingToken();
				figures.failover((System.nanoTime() - pausedAt) / 1_000_000);
				resource.rivalWrites(this, lock, fenced);
				record(writes, "rival", lockPath, rivalToken, "accepted");
			}
			// the holder stays stopped for two session timeouts in all
			Duration left = Duration.ofNanos(Math.max(0,
					SESSION_TIMEOUT.multipliedBy(2).toNanos() - (System.nanoTime() - pausedAt)));
			await().pollDelay(left).atMost(left.plusSeconds(5)).until(() -> true);
			this.holder.resume();
			String lateWrite = this.holder
				.call(resource.command(mode, lockPath, "holder-late"), "wrote", Duration.ofSeconds(30))
				.trim();
			record(writes, "holder", lockPath, holderToken, lateWrite);
			String release = this.holder.call("release", "released", Duration.ofSeconds(30)).trim();

			List<String> state = resource.state(this, lockPath);
			CheckResult checked = writes.check();
			figures.staleWrites(lateWrite.equals("refused") ? 1 : 0, lateWrite.equals("accepted") ? 1 : 0)
				.extra(lockPath + " tokens holder/rival", holderToken + " / " + rivalToken)
				.extra(lockPath + " late write of the holder", lateWrite)
				.extra(lockPath + " holder's release", release)
				.extra(lockPath + " resource", state)
				.extra(lockPath + " history checker", checked.violations().isEmpty() ? "no violation"
						: checked.violations().get(0));
			assertThat(rivalToken).as("the rival's token").isGreaterThan(holderToken);
			return new Outcome(holderToken, rivalToken, lateWrite, state, checked);
		}
		finally {
			figures.report(FaultLab.outputRoot());
		}
	}

	/** A write the database took or refused, as the history checker sees it. */
	private static void record(LockHistory writes, String writer, String lockPath, long token, String decision) {
		writes.record(writer, decision.equals("accepted") ? Type.WRITE_ACCEPTED : Type.WRITE_REFUSED, lockPath,
				LockMode.EXCLUSIVE, token, decision);
	}

	private record Outcome(long holderToken, long rivalToken, String lateWrite, List<String> state,
			CheckResult history) {

	}

	/** Where the holder and the rival write, fenced or not. */
	private enum Resource {

		/** A ledger table; fenced with {@link JdbcFencingTokens} in the writing transaction. */
		JDBC {

			@Override
			String command(String mode, String lockPath, String note) {
				return "write-jdbc " + mode + " " + note;
			}

			@Override
			void rivalWrites(ResourceFencingPauseTests test, LockHandle lock, boolean fenced) {
				test.transactions.executeWithoutResult((tx) -> {
					if (fenced) {
						test.fencing.advance(lock);
					}
					test.jdbc.update("INSERT INTO ledger (resource, fencing_token, note) VALUES (?, ?, 'rival')",
							lock.lockPath(), lock.fencingToken());
				});
			}

			@Override
			List<String> state(ResourceFencingPauseTests test, String lockPath) {
				return test.jdbc.queryForList("SELECT note FROM ledger WHERE resource = ? ORDER BY id", String.class,
						lockPath);
			}

		},

		/** A znode's data; fenced with {@link GuardedTransaction} (the lock node checked in a multi). */
		ZOOKEEPER {

			@Override
			String command(String mode, String lockPath, String note) {
				return "write-zk " + mode + " " + znode(lockPath) + " " + note;
			}

			@Override
			void rivalWrites(ResourceFencingPauseTests test, LockHandle lock, boolean fenced) throws Exception {
				byte[] data = "rival".getBytes(StandardCharsets.UTF_8);
				CuratorFramework client = test.rivalClient;
				if (fenced) {
					GuardedTransaction.commit(client, lock, client.transactionOp().setData().forPath(znode(lock.lockPath()), data));
				}
				else {
					client.setData().forPath(znode(lock.lockPath()), data);
				}
			}

			@Override
			List<String> state(ResourceFencingPauseTests test, String lockPath) throws Exception {
				return List.of(new String(test.rivalClient.getData().forPath(znode(lockPath)), StandardCharsets.UTF_8));
			}

		};

		abstract String command(String mode, String lockPath, String note);

		abstract void rivalWrites(ResourceFencingPauseTests test, LockHandle lock, boolean fenced) throws Exception;

		abstract List<String> state(ResourceFencingPauseTests test, String lockPath) throws Exception;

		/** The data znode a lock path guards, inside the namespace. */
		static String znode(String lockPath) {
			return "/data/" + lockPath;
		}

	}

}
