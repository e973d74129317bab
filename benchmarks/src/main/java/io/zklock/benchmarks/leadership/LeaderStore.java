package io.zklock.benchmarks.leadership;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The resource the leaders of scenario 15 write to: it refuses a write whose fencing token is
 * lower than the highest it has accepted (Kleppmann's storage server, Chubby's sequencer check),
 * and remembers every request with who sent it and when the writer's check before it passed, so
 * that the driver can tell stale writes and two running leaders from it. A write without a token
 * cannot be checked and is accepted. One line per request over loopback TCP:
 * {@code WRITE <writer> <token | -> <check-start-nanos> <check-end-nanos>}, answered
 * {@code ACCEPTED} or {@code REFUSED}. Unlike the pause test's store (scenario 13) it records when
 * the check before the write began and returned, since here every write follows a check of the
 * library ("do I still lead?") whose time is the measure. Thread-safe.
 */
public final class LeaderStore implements AutoCloseable {

	private final ServerSocket socket;

	private final List<Socket> connections = new CopyOnWriteArrayList<>();

	private final List<Write> writes = new ArrayList<>();

	private long highest = Long.MIN_VALUE;

	private LeaderStore(ServerSocket socket) {
		this.socket = socket;
		Thread acceptor = new Thread(this::accept, "leader-store");
		acceptor.setDaemon(true);
		acceptor.start();
	}

	/**
	 * Starts a store on a free loopback port.
	 * @return the store
	 * @throws IOException if no port can be bound
	 */
	public static LeaderStore start() throws IOException {
		return new LeaderStore(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
	}

	/**
	 * The loopback port.
	 * @return the port
	 */
	public int port() {
		return this.socket.getLocalPort();
	}

	private void accept() {
		while (!this.socket.isClosed()) {
			try {
				Socket connection = this.socket.accept();
				connection.setTcpNoDelay(true);
				this.connections.add(connection);
				Thread thread = new Thread(() -> serve(connection), "leader-store-connection");
				thread.setDaemon(true);
				thread.start();
			}
			catch (IOException ex) {
				return;
			}
		}
	}

	private void serve(Socket connection) {
		try (connection;
				BufferedReader in = new BufferedReader(
						new InputStreamReader(connection.getInputStream(), StandardCharsets.UTF_8));
				PrintWriter out = new PrintWriter(connection.getOutputStream(), true, StandardCharsets.UTF_8)) {
			String line;
			while ((line = in.readLine()) != null) {
				String[] words = line.split(" ");
				Long token = words[2].equals("-") ? null : Long.valueOf(words[2]);
				out.println(write(words[1], token, Long.parseLong(words[3]), Long.parseLong(words[4])) ? "ACCEPTED"
						: "REFUSED");
			}
		}
		catch (IOException ex) {
			// the writer went away (killed, stopped)
		}
		finally {
			this.connections.remove(connection);
		}
	}

	/**
	 * Writes as a writer.
	 * @param writer who writes
	 * @param token its token, or {@code null} for none
	 * @param checkNanos when the writer's check before this write began ({@link System#nanoTime()})
	 * @param checkedNanos when that check returned
	 * @return whether the write was accepted
	 */
	synchronized boolean write(String writer, Long token, long checkNanos, long checkedNanos) {
		boolean accepted = (token == null) || token >= this.highest;
		if (accepted && token != null) {
			this.highest = token;
		}
		this.writes.add(new Write(writer, token, checkNanos, checkedNanos, System.nanoTime(), accepted));
		return accepted;
	}

	/**
	 * Every write so far, in the order the store decided them.
	 * @return the writes
	 */
	public synchronized List<Write> writes() {
		return List.copyOf(this.writes);
	}

	/**
	 * The writes decided at or after an index of {@link #writes()}.
	 * @param from the index
	 * @return the writes from there on
	 */
	public synchronized List<Write> writesFrom(int from) {
		return List.copyOf(this.writes.subList(Math.min(from, this.writes.size()), this.writes.size()));
	}

	/**
	 * How many writes were decided so far.
	 * @return the count
	 */
	public synchronized int size() {
		return this.writes.size();
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
		for (Socket connection : this.connections) {
			connection.close();
		}
	}

	/**
	 * One write request.
	 * @param writer who wrote (a leader process's id)
	 * @param token its token, or {@code null}
	 * @param checkNanos when its check before the write began ({@link System#nanoTime()}, comparable
	 * across the processes of one machine on Linux): the check ran as leader no earlier
	 * @param checkedNanos when that check returned, that it may write: no later
	 * @param nanos when the store decided it
	 * @param accepted whether the store took it
	 */
	public record Write(String writer, Long token, long checkNanos, long checkedNanos, long nanos, boolean accepted) {
	}

	/** A connection to a store from a leader process. Not thread-safe. */
	static final class Connection implements AutoCloseable {

		private final Socket socket;

		private final BufferedReader in;

		private final PrintWriter out;

		Connection(int port) throws IOException {
			this.socket = new Socket(InetAddress.getLoopbackAddress(), port);
			this.socket.setTcpNoDelay(true);
			this.in = new BufferedReader(new InputStreamReader(this.socket.getInputStream(), StandardCharsets.UTF_8));
			this.out = new PrintWriter(this.socket.getOutputStream(), true, StandardCharsets.UTF_8);
		}

		/** Writes; {@code true} if accepted. */
		boolean write(String writer, Long token, long checkNanos, long checkedNanos) throws IOException {
			this.out.println("WRITE " + writer + " " + ((token == null) ? "-" : token.toString()) + " " + checkNanos
					+ " " + checkedNanos);
			String answer = this.in.readLine();
			if (answer == null) {
				throw new IOException("The leader store closed the connection");
			}
			return "ACCEPTED".equals(answer);
		}

		@Override
		public void close() throws IOException {
			this.socket.close();
		}

	}

}
