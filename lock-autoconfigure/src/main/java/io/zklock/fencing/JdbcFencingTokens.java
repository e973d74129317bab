package io.zklock.fencing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.OptionalLong;
import java.util.regex.Pattern;

import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcOperations;
import org.springframework.jdbc.core.JdbcTemplate;

import io.zklock.lock.LockHandle;

/**
 * The resource side of fencing for a relational database: a table that keeps, per guarded
 * resource, the newest fencing token accepted, and a conditional update that refuses an older
 * one (Kleppmann, "How to do distributed locking", 2016: the storage must check the token;
 * Chubby's sequencers). Call {@link #advance(String, long)} in the transaction that writes the
 * resource, before or after the writes:
 *
 * <pre class="code">
 * &#064;DistributedLock(path = "orders", key = "#id")
 * &#064;Transactional
 * public void ship(long id) {
 *     fencing.advance(LockContext.currentLock().orElseThrow());  // "orders/42" and its token
 *     jdbc.update("UPDATE orders SET status = 'SHIPPED' WHERE id = ?", id);
 * }
 * </pre>
 *
 * <p>
 * It runs on the {@link JdbcOperations} it is given, so it joins the transaction Spring has
 * bound to the thread ({@code @Transactional}, {@code TransactionTemplate}) and commits or
 * rolls back with the writes; without a transaction each statement commits on its own. The
 * updated row stays locked until the transaction ends, so a paused holder that wakes with an
 * old token waits for the newer holder's transaction and is then refused: the token check and
 * the writes commit together or not at all. Use the database's default isolation (READ
 * COMMITTED on PostgreSQL and H2).
 *
 * <p>
 * The statements are plain SQL: {@code UPDATE … SET fencing_token = ? WHERE resource = ? AND
 * fencing_token <= ?}; when no row changed, {@code SELECT fencing_token …} tells a stale token
 * from a new resource, which gets an {@code INSERT} under a savepoint (so that losing the race
 * to insert the first row does not abort a PostgreSQL transaction). The table, from
 * {@code classpath:io/zklock/fencing/schema.sql} (PostgreSQL, H2 and other databases with
 * {@code BIGINT}):
 *
 * <pre class="code">
 * CREATE TABLE zklock_fencing_token (
 *     resource      VARCHAR(512) NOT NULL PRIMARY KEY,
 *     fencing_token BIGINT       NOT NULL
 * );
 * </pre>
 *
 * <p>
 * Thread-safe.
 */
public class JdbcFencingTokens {

	/** The table name of {@code schema.sql}. */
	public static final String DEFAULT_TABLE = "zklock_fencing_token";

	private static final Pattern TABLE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?");

	private static final int ATTEMPTS = 5;

	private final JdbcOperations jdbc;

	private final String update;

	private final String select;

	private final String insert;

	/**
	 * Creates the helper over the {@value #DEFAULT_TABLE} table.
	 * @param jdbc the application's {@link JdbcTemplate} (or other {@link JdbcOperations})
	 */
	public JdbcFencingTokens(JdbcOperations jdbc) {
		this(jdbc, DEFAULT_TABLE);
	}

	/**
	 * Creates the helper over a table of one's own, with the columns of {@code schema.sql}.
	 * @param jdbc the application's {@link JdbcTemplate} (or other {@link JdbcOperations})
	 * @param table the table name, optionally with its schema, such as {@code "app.fencing"}
	 * @throws IllegalArgumentException if {@code jdbc} is {@code null} or the table name is not
	 * a plain SQL identifier
	 */
	public JdbcFencingTokens(JdbcOperations jdbc, String table) {
		if (jdbc == null) {
			throw new IllegalArgumentException("'jdbc' must not be null: pass the application's JdbcTemplate");
		}
		if (table == null || !TABLE_NAME.matcher(table).matches()) {
			throw new IllegalArgumentException("Fencing token table '" + table + "' is not a plain SQL name: use "
					+ "letters, digits and '_', optionally 'schema.table', such as '" + DEFAULT_TABLE + "'");
		}
		this.jdbc = jdbc;
		this.update = "UPDATE " + table + " SET fencing_token = ? WHERE resource = ? AND fencing_token <= ?";
		this.select = "SELECT fencing_token FROM " + table + " WHERE resource = ?";
		this.insert = "INSERT INTO " + table + " (resource, fencing_token) VALUES (?, ?)";
	}

	/**
	 * Accepts a lock's fencing token for its lock path: the guarded resource is named by the
	 * lock path, such as {@code "orders/42"}.
	 * @param lock the lock the write runs under
	 * @throws StaleFencingTokenException if the resource has accepted a newer token
	 * @throws DataAccessException if the database fails
	 * @see #advance(String, long)
	 */
	public void advance(LockHandle lock) {
		advance(lock.lockPath(), lock.fencingToken());
	}

	/**
	 * Accepts a fencing token for a resource: stores it unless the resource has accepted a
	 * newer one. The same token may be accepted again (one holder writing twice).
	 * @param resource the guarded resource, such as the lock path {@code "orders/42"}, at most
	 * 512 characters with {@code schema.sql}
	 * @param fencingToken the writer's token ({@code LockHandle.fencingToken()},
	 * {@code LockContext.currentToken()})
	 * @throws StaleFencingTokenException if the resource has accepted a newer token; the
	 * current transaction should then roll back, as it does when the exception leaves a
	 * {@code @Transactional} method
	 * @throws IllegalArgumentException if {@code resource} is {@code null} or blank
	 * @throws DataAccessException if the database fails, or the table is missing
	 */
	@SuppressWarnings("NullAway") // the callback returns null, which Spring 7 declares with T extends @Nullable Object:
	// NullAway reads that only in JSpecify mode, which needs a newer JDK than 17.0.15 (see the parent pom)
	public void advance(String resource, long fencingToken) {
		if (resource == null || resource.isBlank()) {
			throw new IllegalArgumentException("Fenced resource must not be null or blank, was '" + resource
					+ "'; name it after the lock path, such as \"orders/42\"");
		}
		this.jdbc.execute((Connection connection) -> {
			advance(connection, resource, fencingToken);
			return null;
		});
	}

	/**
	 * The newest token a resource has accepted.
	 * @param resource the guarded resource
	 * @return the token, or empty if the resource has accepted none
	 * @throws DataAccessException if the database fails
	 */
	public OptionalLong currentToken(String resource) {
		return this.jdbc.execute((Connection connection) -> stored(connection, resource));
	}

	private void advance(Connection connection, String resource, long token) throws SQLException {
		for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
			if (updated(connection, resource, token)) {
				return;
			}
			OptionalLong stored = stored(connection, resource);
			if (stored.isPresent() && stored.getAsLong() > token) {
				throw new StaleFencingTokenException(resource, token, stored.getAsLong());
			}
			if (stored.isEmpty() && inserted(connection, resource, token)) {
				return;
			}
			// the row appeared or changed between two statements: compare again
		}
		throw new IllegalStateException("Fencing token " + token + " for '" + resource + "' was neither accepted nor "
				+ "refused in " + ATTEMPTS + " attempts: the row keeps changing under concurrent writers");
	}

	private boolean updated(Connection connection, String resource, long token) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(this.update)) {
			statement.setLong(1, token);
			statement.setString(2, resource);
			statement.setLong(3, token);
			return statement.executeUpdate() > 0;
		}
	}

	private OptionalLong stored(Connection connection, String resource) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(this.select)) {
			statement.setString(1, resource);
			try (ResultSet rows = statement.executeQuery()) {
				return rows.next() ? OptionalLong.of(rows.getLong(1)) : OptionalLong.empty();
			}
		}
	}

	/**
	 * Inserts the resource's first row; {@code false} if another writer inserted it first (a
	 * unique-key violation, rolled back to a savepoint inside a transaction).
	 */
	private boolean inserted(Connection connection, String resource, long token) throws SQLException {
		Savepoint savepoint = connection.getAutoCommit() ? null : connection.setSavepoint();
		try (PreparedStatement statement = connection.prepareStatement(this.insert)) {
			statement.setString(1, resource);
			statement.setLong(2, token);
			statement.executeUpdate();
			return true;
		}
		catch (SQLException ex) {
			if (ex.getSQLState() == null || !ex.getSQLState().startsWith("23")) {
				throw ex;
			}
			if (savepoint != null) {
				connection.rollback(savepoint);
			}
			return false;
		}
		finally {
			if (savepoint != null) {
				releaseQuietly(connection, savepoint);
			}
		}
	}

	private static void releaseQuietly(Connection connection, Savepoint savepoint) {
		try {
			connection.releaseSavepoint(savepoint);
		}
		catch (SQLException ex) {
			// released with the rollback already, or not supported: the transaction goes on
		}
	}

	@Override
	public String toString() {
		return "JdbcFencingTokens[" + this.update + "]";
	}

}
