package io.zklock.fault.fencing;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.zklock.fault.contender.EventSink;
import io.zklock.fencing.JdbcFencingTokens;
import io.zklock.fencing.StaleFencingTokenException;
import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.GuardedTransaction;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockLostException;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockEngine;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A lock holder that writes to a resource, run as a child JVM so the test can pause it with
 * {@code SIGSTOP} past its session: Kleppmann's paused holder. It holds one lock and writes
 * with the lock's fencing token, through zklock's resource-side helpers or, for the negative
 * control, without them.
 *
 * <p>
 * Usage: {@code FencedWriterMain <process-id> <connect-string> <session-ms> <jdbc-url>}. It
 * speaks the contender's protocol ({@link EventSink}: replies {@code R …} on standard output).
 * Commands, one per line on standard input:
 * <ul>
 * <li>{@code hold <lock-path>} → {@code R held <token>}</li>
 * <li>{@code write-jdbc fenced|unfenced <note>} → {@code R wrote accepted|refused}: in one
 * transaction, {@link JdbcFencingTokens#advance(LockHandle)} (when fenced) and an insert into
 * {@code ledger (resource, fencing_token, note)}</li>
 * <li>{@code write-zk fenced|unfenced <znode> <data>} → {@code R wrote accepted|refused}: a
 * {@code setData} of the znode, through {@link GuardedTransaction#commit} (when fenced) or
 * plain</li>
 * <li>{@code release} → {@code R released <ReleaseResult>}</li>
 * <li>{@code exit}</li>
 * </ul>
 */
public final class FencedWriterMain {

	private final EventSink events;

	private final CuratorFramework client;

	private final LockEngine engine;

	private final ILockByCurator locks;

	private final JdbcTemplate jdbc;

	private final TransactionTemplate transactions;

	private final JdbcFencingTokens fencing;

	private LockHandle handle;

	private FencedWriterMain(EventSink events, CuratorFramework client, String jdbcUrl) {
		this.events = events;
		this.client = client;
		this.engine = new LockEngine(client, "/locks");
		this.locks = new ExclusiveLockByCurator(this.engine);
		DriverManagerDataSource dataSource = new DriverManagerDataSource(jdbcUrl);
		this.jdbc = new JdbcTemplate(dataSource);
		this.transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
		this.fencing = new JdbcFencingTokens(this.jdbc);
	}

	/**
	 * Runs the writer until {@code exit} or the end of standard input.
	 * @param args the process id, the connect string, the session timeout in ms and the JDBC URL
	 */
	public static void main(String[] args) throws Exception {
		PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
		System.setOut(System.err);
		EventSink events = new EventSink(protocol, args[0]);
		int sessionMs = Integer.parseInt(args[2]);
		ExecutorService safeService = Executors.newSingleThreadExecutor((runnable) -> {
			Thread thread = new Thread(runnable, "curator-safe-notify");
			thread.setDaemon(true);
			return thread;
		});
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(args[1])
			.namespace("zklock")
			.sessionTimeoutMs(sessionMs)
			.connectionTimeoutMs(sessionMs / 2)
			.retryPolicy(new RetryNTimes(3, 100))
			.ensembleTracker(false)
			.runSafeService(safeService)
			.build();
		client.start();
		if (!client.blockUntilConnected(2 * sessionMs, TimeUnit.MILLISECONDS)) {
			throw new IllegalStateException("No ZooKeeper session with " + args[1]);
		}
		FencedWriterMain writer = new FencedWriterMain(events, client, args[3]);
		events.reply("started", Long.toString(ProcessHandle.current().pid()));
		BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		String line;
		while ((line = in.readLine()) != null && !line.trim().equals("exit")) {
			try {
				writer.handle(line.trim().split("\\s+"));
			}
			catch (Exception ex) {
				events.reply("error", line.split("\\s+")[0] + ": " + ex.toString().replace('\n', ' '));
			}
		}
		writer.engine.close();
		client.close();
		safeService.shutdownNow();
		System.exit(0);
	}

	private void handle(String[] words) {
		switch (words[0]) {
			case "hold" -> {
				this.handle = this.locks.tryAcquire(words[1], LockMode.EXCLUSIVE, Duration.ofSeconds(30))
					.orElseThrow(() -> new IllegalStateException("'" + words[1] + "' not acquired within 30 s"));
				this.events.reply("held", Long.toString(this.handle.fencingToken()));
			}
			case "write-jdbc" -> this.events.reply("wrote", writeJdbc(words[1].equals("fenced"), words[2]));
			case "write-zk" -> this.events.reply("wrote", writeZooKeeper(words[1].equals("fenced"), words[2], words[3]));
			case "release" -> this.events.reply("released", this.handle.release().name());
			default -> this.events.reply("error", "unknown command '" + String.join(" ", words) + "'");
		}
	}

	private String writeZooKeeper(boolean fenced, String znode, String data) {
		byte[] bytes = data.getBytes(StandardCharsets.UTF_8);
		try {
			if (fenced) {
				GuardedTransaction.commit(this.client, this.handle,
						this.client.transactionOp().setData().forPath(znode, bytes));
			}
			else {
				this.client.setData().forPath(znode, bytes);
			}
			return "accepted";
		}
		catch (LockLostException ex) {
			System.err.println(ex.getMessage());
			return "refused";
		}
		catch (Exception ex) {
			throw new IllegalStateException("Write of " + znode + " failed: " + ex, ex);
		}
	}

	private String writeJdbc(boolean fenced, String note) {
		try {
			this.transactions.executeWithoutResult((tx) -> {
				if (fenced) {
					this.fencing.advance(this.handle);
				}
				this.jdbc.update("INSERT INTO ledger (resource, fencing_token, note) VALUES (?, ?, ?)",
						this.handle.lockPath(), this.handle.fencingToken(), note);
			});
			return "accepted";
		}
		catch (StaleFencingTokenException ex) {
			System.err.println(ex.getMessage());
			return "refused";
		}
	}

}
