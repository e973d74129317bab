package io.zklock.fault.contender;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One connection to the fenced register of the test JVM (loopback TCP, one line per request).
 * Every request carries the caller's fencing token: {@code READ key token} answers
 * {@code VALUE v}; {@code WRITE key token value} answers {@code ACCEPTED} or
 * {@code REJECTED <highest token>}.
 *
 * <p>
 * Not thread-safe: each worker thread opens its own.
 */
public final class RegisterClient implements AutoCloseable {

	private final Socket socket;

	private final BufferedReader in;

	private final Writer out;

	/**
	 * Connects to the register.
	 * @param port the register's loopback port
	 * @throws UncheckedIOException if the register cannot be reached
	 */
	public RegisterClient(int port) {
		try {
			this.socket = new Socket(InetAddress.getLoopbackAddress(), port);
			this.socket.setTcpNoDelay(true);
			this.in = new BufferedReader(new InputStreamReader(this.socket.getInputStream(), StandardCharsets.UTF_8));
			this.out = new OutputStreamWriter(this.socket.getOutputStream(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Fenced register on port " + port + " is not reachable", ex);
		}
	}

	/**
	 * Reads the counter under {@code key}; the register remembers {@code token} as seen.
	 * @return the counter's value
	 */
	public long read(String key, long token) {
		String answer = call("READ " + key + " " + token);
		if (!answer.startsWith("VALUE ")) {
			throw new IllegalStateException("Register answered '" + answer + "' to a READ of " + key);
		}
		return Long.parseLong(answer.substring(6).trim());
	}

	/**
	 * Writes the counter under {@code key}.
	 * @return {@code true} if the register accepted the write
	 */
	public boolean write(String key, long token, long value) {
		String answer = call("WRITE " + key + " " + token + " " + value);
		if (answer.equals("ACCEPTED")) {
			return true;
		}
		if (answer.startsWith("REJECTED")) {
			return false;
		}
		throw new IllegalStateException("Register answered '" + answer + "' to a WRITE of " + key);
	}

	private String call(String request) {
		try {
			this.out.write(request + "\n");
			this.out.flush();
			String answer = this.in.readLine();
			if (answer == null) {
				throw new IOException("Register closed the connection");
			}
			return answer;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Register request '" + request + "' failed", ex);
		}
	}

	@Override
	public void close() {
		try {
			this.socket.close();
		}
		catch (IOException ex) {
			// closing anyway
		}
	}

}
