package io.zklock.benchmarks.leadership;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.CuratorEventType;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

/**
 * One leader of scenario 15, in a JVM of its own so that the driver can freeze it
 * ({@code SIGSTOP}), kill it ({@code SIGKILL}) or cut it off (its {@code BlackHoleProxy}) like a real
 * service: a Curator client (session timeout as given, no ensemble tracking), one candidacy of a
 * role through a {@link LeaderLibrary}, and leader work on a thread of its own that, over and over,
 * asks the library whether it may write ({@link Leadership#mayWrite()}) and if so writes to the
 * {@link LeaderStore} with the library's token and when the check began and returned, then pauses
 * 5 ms (1 ms between failed checks).
 *
 * <p>
 * Usage: {@code LeaderProcessMain <library> <id> <connect-string> <session-ms> <store-port> <role>
 * <block>}, {@code block} being {@code -}, {@code onGranted:<ms>} or {@code onRevoked:<ms>} (each
 * such callback of the library blocks that long). Commands on standard input: {@code leave},
 * {@code join}, {@code status}, {@code exit}. Every line on standard output starts with
 * {@link System#nanoTime()} (comparable with the driver's on Linux): {@code READY <pid>},
 * {@code GRANTED <token|->} and {@code REVOKED} (the library's callbacks, before they block),
 * {@code STOP} (the first failed check after passed ones), Curator's connection states
 * ({@code SUSPENDED}, {@code RECONNECTED}, {@code LOST}, …), {@code DISCONNECTED} and
 * {@code SYNCCONNECTED} (the ZooKeeper client's events), {@code LEAVING} and {@code LEFT}, {@code JOINED}, {@code STATUS <leads> <token|->}.
 */
public final class LeaderProcessMain {

	private static final long PERIOD_MS = 5;

	private static PrintStream out;

	private LeaderProcessMain() {
	}

	/**
	 * Runs the leader until {@code exit} or the end of standard input.
	 * @param args library, id, connect string, session timeout in ms, store port, role, block
	 * @throws Exception if the client or the library fails to start
	 */
	public static void main(String[] args) throws Exception {
		out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
		System.setOut(System.err);
		LeaderLibrary library = LeaderLibrary.ofId(args[0]);
		String id = args[1];
		int sessionMs = Integer.parseInt(args[3]);
		Blocking blocking = Blocking.of(args[6]);
		ExecutorService safeService = Executors.newSingleThreadExecutor((runnable) -> {
			Thread thread = new Thread(runnable, "curator-safe-notify");
			thread.setDaemon(true);
			return thread;
		});
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(args[2])
			.sessionTimeoutMs(sessionMs)
			.connectionTimeoutMs(sessionMs / 2)
			.retryPolicy(new RetryNTimes(3, 100))
			.ensembleTracker(false)
			.runSafeService(safeService)
			.build();
		client.getConnectionStateListenable().addListener((c, state) -> say(state.name()));
		// the ZooKeeper client's own connection events, on its event thread: Curator counts the client
		// (dis)connected from then on, and dispatches SUSPENDED and RECONNECTED later, on a thread of its own
		client.getCuratorListenable().addListener((c, event) -> {
			WatchedEvent watched = event.getWatchedEvent();
			if (event.getType() == CuratorEventType.WATCHED && watched != null
					&& watched.getType() == Watcher.Event.EventType.None) {
				if (watched.getState() == Watcher.Event.KeeperState.Disconnected) {
					say("DISCONNECTED");
				}
				else if (watched.getState() == Watcher.Event.KeeperState.SyncConnected) {
					say("SYNCCONNECTED");
				}
			}
		});
		client.start();
		if (!client.blockUntilConnected(2 * sessionMs + 10_000, TimeUnit.MILLISECONDS)) {
			throw new IllegalStateException("No ZooKeeper session with " + args[2]);
		}
		Leadership leadership = Leadership.open(library, client, id, args[5], new Leadership.Callbacks() {

			@Override
			public void granted(Long token) {
				say("GRANTED " + ((token != null) ? token : "-"));
				blocking.granted();
			}

			@Override
			public void revoked() {
				say("REVOKED");
				blocking.revoked();
			}

		});
		Thread work = new Thread(() -> work(leadership, id, Integer.parseInt(args[4])), "work");
		work.setDaemon(true);
		leadership.join();
		work.start();
		say("READY " + ProcessHandle.current().pid());
		BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		String line;
		while ((line = in.readLine()) != null) {
			switch (line.trim()) {
				case "leave" -> {
					say("LEAVING");
					leadership.leave();
					say("LEFT");
				}
				case "join" -> {
					leadership.join();
					say("JOINED");
				}
				case "status" -> {
					boolean leads = leadership.mayWrite();
					Long token = leadership.token();
					say("STATUS " + leads + " " + ((leads && token != null) ? token : "-"));
				}
				case "exit" -> {
					leadership.close();
					client.close();
					System.exit(0);
				}
				default -> say("ERROR unknown command '" + line + "'");
			}
		}
		System.exit(0);
	}

	private static void work(Leadership leadership, String id, int storePort) {
		try (LeaderStore.Connection store = new LeaderStore.Connection(storePort)) {
			boolean passing = false;
			while (true) {
				long checking = System.nanoTime();
				boolean leads = leadership.mayWrite();
				long checked = System.nanoTime();
				if (leads) {
					passing = true;
					store.write(id, leadership.token(), checking, checked);
					Thread.sleep(PERIOD_MS);
				}
				else {
					if (passing) {
						say(checking, "STOP");
						passing = false;
					}
					Thread.sleep(1);
				}
			}
		}
		catch (Exception ex) {
			System.err.println("Leader work ended: " + ex);
		}
	}

	private static void say(String line) {
		say(System.nanoTime(), line);
	}

	private static synchronized void say(long nanos, String line) {
		out.println(nanos + " " + line);
		out.flush();
	}

	/** A callback that blocks, as user code that starts or stops something slow in line would. */
	private record Blocking(String callback, long millis) {

		static Blocking of(String spec) {
			if (spec.equals("-")) {
				return new Blocking("-", 0);
			}
			String[] parts = spec.split(":");
			String callback = parts[0].toLowerCase(Locale.ROOT);
			if (!callback.equals("ongranted") && !callback.equals("onrevoked")) {
				throw new IllegalArgumentException("Block '" + spec + "': use onGranted:<ms> or onRevoked:<ms>");
			}
			return new Blocking(callback, Long.parseLong(parts[1]));
		}

		void granted() {
			if (this.callback.equals("ongranted")) {
				sleep();
			}
		}

		void revoked() {
			if (this.callback.equals("onrevoked")) {
				sleep();
			}
		}

		private void sleep() {
			try {
				Thread.sleep(this.millis);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

}
