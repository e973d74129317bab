package io.zklock.fault.register;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.zklock.fault.history.History;

/**
 * The resource the locks guard: a counter per key, served on loopback TCP to the contenders,
 * that checks fencing tokens (Kleppmann, "How to do distributed locking", 2016; Chubby's
 * sequencers). It remembers, per key, the largest token it has seen in any request (a read or
 * an accepted write), and refuses a write whose token is smaller: a holder that lost its lock
 * while paused cannot overwrite what a later holder did. With {@link #setFenced(boolean)
 * fenced} off it accepts such a stale write, which is how a test shows its fault has teeth.
 *
 * <p>
 * Protocol, one line each way: {@code READ <key> <token>} → {@code VALUE <value>};
 * {@code WRITE <key> <token> <value>} → {@code ACCEPTED} or {@code REJECTED <largest token>}.
 * Every write decision is recorded in the {@link History}.
 *
 * <p>
 * Thread-safe.
 */
public final class FencedRegister implements AutoCloseable {

	private final History history;

	private final ServerSocket server;

	private final Map<String, RegisterKey> keys = new HashMap<>();

	private final List<Socket> connections = new CopyOnWriteArrayList<>();

	private volatile boolean fenced = true;

	/**
	 * Starts the register on a free loopback port.
	 * @param history where write decisions are recorded
	 */
	public FencedRegister(History history) {
		this.history = history;
		try {
			this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		Thread acceptor = new Thread(this::accept, "fenced-register");
		acceptor.setDaemon(true);
		acceptor.start();
	}

	/** The loopback port. */
	public int port() {
		return this.server.getLocalPort();
	}

	/**
	 * Switches the token check: {@code false} accepts stale writes (and counts them), for
	 * negative controls.
	 */
	public void setFenced(boolean fenced) {
		this.fenced = fenced;
	}

	/** What the register holds and decided for {@code key}. */
	public synchronized KeyStats stats(String key) {
		return this.keys.getOrDefault(key, new RegisterKey()).stats(key);
	}

	/** The figures summed over every key. */
	public synchronized KeyStats totals() {
		KeyStats sum = new KeyStats("*", 0, 0, 0, 0, 0, 0);
		for (Map.Entry<String, RegisterKey> entry : this.keys.entrySet()) {
			sum = sum.plus(entry.getValue().stats(entry.getKey()));
		}
		return sum;
	}

	synchronized long read(String key, long token) {
		RegisterKey state = this.keys.computeIfAbsent(key, (k) -> new RegisterKey());
		state.reads++;
		state.highestToken = Math.max(state.highestToken, token);
		return state.value;
	}

	synchronized boolean write(String key, long token, long value) {
		RegisterKey state = this.keys.computeIfAbsent(key, (k) -> new RegisterKey());
		boolean stale = token < state.highestToken;
		boolean accepted = !stale || !this.fenced;
		String decision;
		if (!accepted) {
			state.rejectedStale++;
			decision = "rejected";
		}
		else {
			state.acceptedWrites++;
			state.value = value;
			state.highestToken = Math.max(state.highestToken, token);
			if (stale) {
				state.acceptedStale++;
			}
			decision = stale ? "accepted-stale" : "accepted";
		}
		this.history.record("register", "write", decision, key, token, Long.toString(value));
		return accepted;
	}

	private void accept() {
		while (!this.server.isClosed()) {
			try {
				Socket socket = this.server.accept();
				socket.setTcpNoDelay(true);
				this.connections.add(socket);
				Thread handler = new Thread(() -> serve(socket), "fenced-register-" + socket.getPort());
				handler.setDaemon(true);
				handler.start();
			}
			catch (IOException ex) {
				// closed
			}
		}
	}

	private void serve(Socket socket) {
		try (socket) {
			BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
			Writer out = new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.UTF_8);
			String line;
			while ((line = in.readLine()) != null) {
				out.write(answer(line) + "\n");
				out.flush();
			}
		}
		catch (IOException ex) {
			// the contender went away (killed, closed)
		}
		finally {
			this.connections.remove(socket);
		}
	}

	private String answer(String line) {
		String[] w = line.trim().split("\\s+");
		try {
			if (w[0].equals("READ") && w.length == 3) {
				return "VALUE " + read(w[1], Long.parseLong(w[2]));
			}
			if (w[0].equals("WRITE") && w.length == 4) {
				boolean accepted = write(w[1], Long.parseLong(w[2]), Long.parseLong(w[3]));
				return accepted ? "ACCEPTED" : "REJECTED " + stats(w[1]).highestToken();
			}
		}
		catch (NumberFormatException ex) {
			// fall through
		}
		return "ERROR unknown request '" + line + "'";
	}

	@Override
	public void close() {
		try {
			this.server.close();
		}
		catch (IOException ex) {
			// closing anyway
		}
		for (Socket socket : this.connections) {
			try {
				socket.close();
			}
			catch (IOException ex) {
				// closing anyway
			}
		}
	}

	/** The mutable state of one key. */
	private static final class RegisterKey {

		long value;

		long highestToken;

		long reads;

		long acceptedWrites;

		long rejectedStale;

		long acceptedStale;

		KeyStats stats(String key) {
			return new KeyStats(key, this.value, this.highestToken, this.reads, this.acceptedWrites,
					this.rejectedStale, this.acceptedStale);
		}

	}

}
