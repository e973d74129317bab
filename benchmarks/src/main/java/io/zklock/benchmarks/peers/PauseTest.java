package io.zklock.benchmarks.peers;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.zklock.benchmarks.server.ChildProcess;

/**
 * Kleppmann's pause, the same for every library: the holder's JVM ({@link PauseHolder}) is
 * stopped with {@code SIGSTOP} between its check and its write, for twice its lease; a rival in
 * this JVM takes the lock (once the lease has run out) and writes with its token; the holder is
 * woken with {@code SIGCONT} and writes with its own, against a {@link FencedStore} that refuses
 * a lower token. Measures how long both believed they held the lock and how many stale writes
 * the store accepted.
 */
public final class PauseTest {

	private static final String KEY = "paused";

	private PauseTest() {
	}

	/**
	 * The libraries of the test, by id, in report order, with their names.
	 * @param peers the section's peers' servers (started)
	 * @param everyLibrary all of them, or zklock and Redisson's RLock only
	 * @return ids and names
	 */
	public static Map<String, String> libraries(PeerServers peers, boolean everyLibrary) {
		Map<String, String> libraries = new java.util.LinkedHashMap<>();
		libraries.put(Holders.ZKLOCK, "zklock");
		if (everyLibrary) {
			libraries.put(Holders.CURATOR, "Curator");
		}
		for (Peer peer : peers.start()) {
			if (everyLibrary || peer == Peer.REDISSON_RLOCK) {
				libraries.put(peer.id(), peer.displayName());
			}
		}
		return libraries;
	}

	/**
	 * Runs the test for one library.
	 * @param id {@code zklock}, {@code curator} or a peer's id
	 * @param zooKeeper the ZooKeeper connect string, for zklock and Curator
	 * @param peers the section's peers' servers, for the others
	 * @param root the prefix of the lock names
	 * @param lease the lease every library gets
	 * @return what happened
	 * @throws Exception if the holder or the rival fails
	 */
	public static Outcome run(String id, String zooKeeper, PeerServers peers, String root, Duration lease)
			throws Exception {
		String address = (id.equals(Holders.ZKLOCK) || id.equals(Holders.CURATOR)) ? zooKeeper
				: peers.address(Peer.ofId(id));
		Path log = Files.createTempFile("zklock-bench-pause-" + id + "-", ".log");
		try (FencedStore store = FencedStore.start();
				GrantingClient rival = Holders.open(id, address, root, lease)) {
			Process holder = new ProcessBuilder(ChildProcess.javaCommand("256m", Map.of(), PauseHolder.class.getName(),
					List.of(id, address, root, KEY, Long.toString(lease.toMillis()), Integer.toString(store.port()))))
				.redirectError(log.toFile())
				.start();
			try {
				return pause(holder, rival, store, lease, log);
			}
			finally {
				holder.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		finally {
			Files.deleteIfExists(log);
		}
	}

	private static Outcome pause(Process holder, GrantingClient rival, FencedStore store, Duration lease, Path log)
			throws Exception {
		BlockingQueue<String> lines = new LinkedBlockingQueue<>();
		Thread reader = new Thread(() -> {
			try (BufferedReader in = new BufferedReader(
					new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8))) {
				String line;
				while ((line = in.readLine()) != null) {
					lines.add(line);
				}
			}
			catch (IOException ex) {
				// the holder is gone
			}
		}, "pause-holder-output");
		reader.setDaemon(true);
		reader.start();
		String ready = expect(lines, "READY", 90, holder, log);
		String tokenText = ready.split(" ")[2];
		expect(lines, "CHECKED", 30, holder, log);
		long stopped = System.nanoTime();
		signal("STOP", holder.pid());
		// the rival waits as long as the library makes it, at most the whole pause and a lease more
		Grant grant = rival.grant(rival.zooKeeperPath(KEY), lease.multipliedBy(3));
		long granted = System.nanoTime();
		if (grant != null) {
			store.write("rival", grant.token().isPresent() ? grant.token().getAsLong() : null);
		}
		long wake = stopped + lease.multipliedBy(2).toNanos();
		long sleep = wake - System.nanoTime();
		if (sleep > 0) {
			TimeUnit.NANOSECONDS.sleep(sleep);
		}
		signal("CONT", holder.pid());
		long woken = System.nanoTime();
		try (Writer in = new OutputStreamWriter(holder.getOutputStream(), StandardCharsets.UTF_8)) {
			in.write("GO\n");
			in.flush();
			String end = expect(lines, "LOST|NEVER-TOLD", lease.multipliedBy(3).toSeconds() + 30, holder, log);
			expect(lines, "DONE", 30, holder, log);
			long told = end.contains("LOST") ? Long.parseLong(end.split(" ")[0]) : -1;
			if (grant != null) {
				grant.release();
			}
			return outcome(tokenText, grant, stopped, granted, woken, told, store.writes());
		}
	}

	private static Outcome outcome(String tokenText, Grant grant, long stopped, long granted, long woken, long told,
			List<FencedStore.Write> writes) {
		long rivalWrote = -1;
		int staleAccepted = 0;
		int staleRefused = 0;
		for (FencedStore.Write write : writes) {
			if (write.writer().equals("rival")) {
				rivalWrote = write.nanos();
			}
			else if (rivalWrote >= 0) {
				if (write.accepted()) {
					staleAccepted++;
				}
				else {
					staleRefused++;
				}
			}
		}
		String rivalToken = (grant == null) ? "(no grant)"
				: grant.token().isPresent() ? Long.toString(grant.token().getAsLong()) : "-";
		return new Outcome(tokenText, rivalToken, (grant == null) ? -1 : (granted - stopped) / 1e9,
				(told < 0) ? -1 : (told - woken) / 1e9, (grant == null) ? 0 : ((told < 0) ? -1 : (told - granted) / 1e9),
				staleAccepted, staleRefused);
	}

	private static String expect(BlockingQueue<String> lines, String pattern, long seconds, Process holder, Path log)
			throws Exception {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
		while (System.nanoTime() - deadline < 0) {
			String line = lines.poll(100, TimeUnit.MILLISECONDS);
			if (line != null && line.split(" ").length > 1 && line.split(" ")[1].matches(pattern)) {
				return line;
			}
			if (line == null && !holder.isAlive() && lines.isEmpty()) {
				break;
			}
		}
		throw new IllegalStateException("The pause test's holder did not print " + pattern + " within " + seconds
				+ " s; its error output:\n" + Files.readString(log));
	}

	private static void signal(String signal, long pid) throws IOException, InterruptedException {
		Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
		if (kill.waitFor() != 0) {
			throw new IOException("kill -" + signal + " " + pid + " failed");
		}
	}

	/**
	 * What one library's pause test saw.
	 * @param holderToken the paused holder's token, or {@code "-"} for none
	 * @param rivalToken the rival's token, {@code "-"} for none, or why there is none
	 * @param rivalGrantedSeconds from the holder's stop to the rival's grant, or -1 if the rival
	 * got no grant during the pause
	 * @param toldSeconds from the holder's wake-up until its library told it the lock was gone, or
	 * -1 if it never did in three leases
	 * @param bothHeldSeconds how long both believed they held: from the rival's grant until the
	 * holder was told, -1 if the holder was never told, 0 if the rival got no grant
	 * @param staleAccepted writes of the old holder the store accepted after the rival's write
	 * @param staleRefused writes of the old holder the store refused after the rival's write
	 */
	public record Outcome(String holderToken, String rivalToken, double rivalGrantedSeconds, double toldSeconds,
			double bothHeldSeconds, int staleAccepted, int staleRefused) {
	}

}
