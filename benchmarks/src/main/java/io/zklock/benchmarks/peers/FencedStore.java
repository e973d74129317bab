package io.zklock.benchmarks.peers;

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

/**
 * The resource the pause test's holders write to: it refuses a write whose fencing token is
 * lower than the highest it has accepted (Kleppmann's storage server, Chubby's sequencer check).
 * A write without a token cannot be checked and is accepted. One line per request over TCP on
 * loopback: {@code WRITE <writer> <token | ->}, answered {@code ACCEPTED} or {@code REFUSED}.
 */
final class FencedStore implements AutoCloseable {

	private final ServerSocket socket;

	private final Thread acceptor;

	private final List<Write> writes = new ArrayList<>();

	private long highest = Long.MIN_VALUE;

	private FencedStore(ServerSocket socket) {
		this.socket = socket;
		this.acceptor = new Thread(this::accept, "fenced-store");
		this.acceptor.setDaemon(true);
		this.acceptor.start();
	}

	static FencedStore start() throws IOException {
		return new FencedStore(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
	}

	int port() {
		return this.socket.getLocalPort();
	}

	private void accept() {
		while (!this.socket.isClosed()) {
			try {
				Socket connection = this.socket.accept();
				Thread thread = new Thread(() -> serve(connection), "fenced-store-connection");
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
				out.println(write(words[1], token) ? "ACCEPTED" : "REFUSED");
			}
		}
		catch (IOException ex) {
			// the writer went away
		}
	}

	/**
	 * Writes as a writer, in this JVM.
	 * @param writer who writes
	 * @param token its token, or {@code null} for none
	 * @return whether the write was accepted
	 */
	synchronized boolean write(String writer, Long token) {
		boolean accepted = (token == null) || token >= this.highest;
		if (accepted && token != null) {
			this.highest = token;
		}
		this.writes.add(new Write(writer, token, accepted, System.nanoTime()));
		return accepted;
	}

	/**
	 * Every write so far, in order.
	 * @return the writes
	 */
	synchronized List<Write> writes() {
		return List.copyOf(this.writes);
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

	/**
	 * One write request.
	 * @param writer who wrote
	 * @param token its token, or {@code null}
	 * @param accepted whether the store took it
	 * @param nanos when ({@link System#nanoTime()}, comparable across processes on Linux)
	 */
	record Write(String writer, Long token, boolean accepted, long nanos) {
	}

	/** A connection to a store from another process. */
	static final class Connection implements AutoCloseable {

		private final Socket socket;

		private final BufferedReader in;

		private final PrintWriter out;

		Connection(int port) throws IOException {
			this.socket = new Socket(InetAddress.getLoopbackAddress(), port);
			this.in = new BufferedReader(new InputStreamReader(this.socket.getInputStream(), StandardCharsets.UTF_8));
			this.out = new PrintWriter(this.socket.getOutputStream(), true, StandardCharsets.UTF_8);
		}

		/** Writes; {@code true} if accepted. */
		boolean write(String writer, Long token) throws IOException {
			this.out.println("WRITE " + writer + " " + ((token == null) ? "-" : token.toString()));
			return "ACCEPTED".equals(this.in.readLine());
		}

		@Override
		public void close() throws IOException {
			this.socket.close();
		}

	}

}
