package io.zklock.benchmarks.peers;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.OptionalLong;

/**
 * The holder of the pause test, in a JVM of its own so that {@code SIGSTOP} freezes all of it
 * (its library's heartbeats and renewals too). Takes the lock, writes to the fenced store with
 * its token, asks its library whether it still holds ({@code CHECKED}), and then waits for
 * {@code GO} on its standard input: the driver stops the JVM right there, between the check and
 * the write, as a GC pause or a page fault would. Once woken it writes at once, and then, as a
 * careful holder would, asks its library before every further write until the library says the
 * lock is gone ({@code LOST}) or three leases have passed ({@code NEVER-TOLD}). Every line it
 * prints carries {@link System#nanoTime()}, comparable with the driver's on Linux.
 */
public final class PauseHolder {

	private PauseHolder() {
	}

	/**
	 * Runs the holder.
	 * @param args library id, address, lock-name root, lock path, lease in ms, the store's port
	 * @throws Exception if the library or the store fails
	 */
	public static void main(String[] args) throws Exception {
		Duration lease = Duration.ofMillis(Long.parseLong(args[4]));
		BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		try (GrantingClient client = Holders.open(args[0], args[1], args[2], lease);
				FencedStore.Connection store = new FencedStore.Connection(Integer.parseInt(args[5]))) {
			Grant grant = client.grant(client.zooKeeperPath(args[3]));
			OptionalLong token = grant.token();
			Long written = token.isPresent() ? token.getAsLong() : null;
			say("READY " + (token.isPresent() ? token.getAsLong() : "-") + " " + store.write("holder", written));
			say("CHECKED " + grant.believesHeld());
			if (!"GO".equals(stdin.readLine())) {
				return;
			}
			say("WROTE " + store.write("holder", written));
			long deadline = System.nanoTime() + 3 * lease.toNanos();
			boolean told = false;
			while (System.nanoTime() - deadline < 0) {
				if (!grant.believesHeld()) {
					say("LOST");
					told = true;
					break;
				}
				say("WROTE " + store.write("holder", written));
				Thread.sleep(20);
			}
			if (!told) {
				say("NEVER-TOLD");
			}
			try {
				grant.release();
			}
			catch (Exception ex) {
				say("RELEASE-FAILED " + ex.getClass().getSimpleName());
			}
		}
		say("DONE");
		System.exit(0);
	}

	private static void say(String line) {
		System.out.println(System.nanoTime() + " " + line);
		System.out.flush();
	}

}
