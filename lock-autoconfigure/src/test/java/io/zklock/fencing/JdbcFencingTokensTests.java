package io.zklock.fencing;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabase;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * {@link JdbcFencingTokens} on H2 2.x with the shipped {@code schema.sql}: from a plain
 * {@link JdbcTemplate} and inside a joined transaction, with concurrent writers holding their
 * transactions open.
 */
@Timeout(60)
class JdbcFencingTokensTests {

	private static final String ORDER = "orders/42";

	private final EmbeddedDatabase database = new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2)
		.generateUniqueName(true)
		.addScript("classpath:io/zklock/fencing/schema.sql")
		.addScript("classpath:io/zklock/fencing/ledger.sql")
		.build();

	private final JdbcTemplate jdbc = new JdbcTemplate(this.database);

	private final TransactionTemplate transactions = new TransactionTemplate(
			new DataSourceTransactionManager(this.database));

	private final JdbcFencingTokens fencing = new JdbcFencingTokens(this.jdbc);

	@AfterEach
	void shutdown() {
		this.database.shutdown();
	}

	@Test
	void shouldStoreTheFirstTokenAndAcceptTheSameOrNewerOnes() {
		assertThat(this.fencing.currentToken(ORDER)).isEmpty();
		this.fencing.advance(ORDER, 100);
		this.fencing.advance(ORDER, 100);
		this.fencing.advance(ORDER, 250);
		assertThat(this.fencing.currentToken(ORDER)).hasValue(250);
		this.fencing.advance("orders/7", 90);
		assertThat(this.fencing.currentToken("orders/7")).hasValue(90);
	}

	@Test
	void shouldRefuseAnOlderTokenNamingBoth() {
		this.fencing.advance(ORDER, 250);
		assertThatExceptionOfType(StaleFencingTokenException.class).isThrownBy(() -> this.fencing.advance(ORDER, 100))
			.withMessageStartingWith("Stale fencing token 100 for 'orders/42': the resource has accepted token 250")
			.satisfies((ex) -> assertThat(ex.getStoredToken()).isEqualTo(250));
		assertThat(this.fencing.currentToken(ORDER)).hasValue(250);
	}

	@Test
	void shouldRollBackTheWritesOfTheJoinedTransactionWhenTheTokenIsStale() {
		ship(250, "shipped by the newer holder");
		assertThatExceptionOfType(StaleFencingTokenException.class)
			.isThrownBy(() -> ship(100, "shipped by the paused holder"));
		assertThat(this.jdbc.queryForList("SELECT note FROM ledger", String.class))
			.containsExactly("shipped by the newer holder");
	}

	@Test
	void shouldLetAStaleWriterWaitForTheNewerTransactionThenRefuseIt() throws Exception {
		this.fencing.advance(ORDER, 100);
		CountDownLatch newerAdvanced = new CountDownLatch(1);
		CountDownLatch staleStarted = new CountDownLatch(1);
		CompletableFuture<Void> newer = CompletableFuture.runAsync(() -> this.transactions.executeWithoutResult((tx) -> {
			this.fencing.advance(ORDER, 250);
			newerAdvanced.countDown();
			await(staleStarted);
			this.jdbc.update("INSERT INTO ledger (note) VALUES ('newer')");
		}));
		await(newerAdvanced);
		CompletableFuture<Void> stale = CompletableFuture.runAsync(() -> this.transactions.executeWithoutResult((tx) -> {
			staleStarted.countDown();
			this.fencing.advance(ORDER, 200); // blocks on the newer transaction's row until it commits
			this.jdbc.update("INSERT INTO ledger (note) VALUES ('stale')");
		}));
		newer.get(30, TimeUnit.SECONDS);
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> stale.get(30, TimeUnit.SECONDS))
			.withCauseInstanceOf(StaleFencingTokenException.class);
		assertThat(this.jdbc.queryForList("SELECT note FROM ledger", String.class)).containsExactly("newer");
		assertThat(this.fencing.currentToken(ORDER)).hasValue(250);
	}

	@Test
	void shouldKeepTheNewerOfTwoFirstWritersRacingToInsertTheRow() throws Exception {
		assertThat(raceOfFirstWriters(250, 100)).as("the older writer comes second").isFalse();
		this.jdbc.update("DELETE FROM zklock_fencing_token");
		assertThat(raceOfFirstWriters(100, 250)).as("the newer writer comes second").isTrue();
		assertThat(this.fencing.currentToken(ORDER)).hasValue(250);
	}

	@Test
	void shouldRejectATableNameThatIsNotAPlainSqlName() {
		assertThatIllegalArgumentException().isThrownBy(() -> new JdbcFencingTokens(this.jdbc, "t; DROP TABLE x"))
			.withMessageStartingWith("Fencing token table 't; DROP TABLE x' is not a plain SQL name");
		assertThatIllegalArgumentException().isThrownBy(() -> this.fencing.advance(" ", 1))
			.withMessageStartingWith("Fenced resource must not be null or blank");
		new JdbcFencingTokens(this.jdbc, "public.zklock_fencing_token").advance(ORDER, 1);
	}

	/**
	 * The first writer inserts the resource's row and keeps its transaction open; the second
	 * finds no committed row, tries to insert it too and waits on the key; then the first
	 * commits.
	 * @return whether the second writer's token was accepted
	 */
	private boolean raceOfFirstWriters(long first, long second) throws Exception {
		CountDownLatch firstInserted = new CountDownLatch(1);
		CountDownLatch secondStarted = new CountDownLatch(1);
		CompletableFuture<Void> one = CompletableFuture.runAsync(() -> this.transactions.executeWithoutResult((tx) -> {
			this.fencing.advance(ORDER, first);
			firstInserted.countDown();
			await(secondStarted);
		}));
		await(firstInserted);
		CompletableFuture<Void> two = CompletableFuture.runAsync(() -> this.transactions.executeWithoutResult((tx) -> {
			secondStarted.countDown();
			this.fencing.advance(ORDER, second);
		}));
		one.get(30, TimeUnit.SECONDS);
		try {
			two.get(30, TimeUnit.SECONDS);
			return true;
		}
		catch (ExecutionException ex) {
			assertThat(ex).hasCauseInstanceOf(StaleFencingTokenException.class);
			return false;
		}
	}

	private void ship(long token, String note) {
		this.transactions.executeWithoutResult((tx) -> {
			this.jdbc.update("INSERT INTO ledger (note) VALUES (?)", note);
			this.fencing.advance(ORDER, token);
		});
	}

	private static void await(CountDownLatch latch) {
		try {
			assertThat(latch.await(20, TimeUnit.SECONDS)).as("latch").isTrue();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
