package io.zklock.fault.ensemble;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * ZooKeeper's four-letter words over loopback, with a timeout (a paused member never
 * answers): {@code srvr} for a member's mode and version, {@code wchc} for its watches by
 * session. The servers must whitelist them ({@code 4lw.commands.whitelist=*}).
 */
public final class FourLetterWords {

	private static final Duration TIMEOUT = Duration.ofSeconds(2);

	private FourLetterWords() {
	}

	/**
	 * Sends a word.
	 * @return the answer, or empty if the member does not answer in time
	 */
	public static Optional<String> send(int port, String word) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), (int) TIMEOUT.toMillis());
			socket.setSoTimeout((int) TIMEOUT.toMillis());
			socket.getOutputStream().write(word.getBytes(StandardCharsets.US_ASCII));
			socket.getOutputStream().flush();
			InputStream in = socket.getInputStream();
			String answer = new String(in.readAllBytes(), StandardCharsets.UTF_8);
			return answer.isEmpty() ? Optional.empty() : Optional.of(answer);
		}
		catch (IOException ex) {
			return Optional.empty();
		}
	}

	/** The member's mode ({@code leader}, {@code follower}, {@code standalone}), or empty. */
	public static Optional<String> mode(int port) {
		return send(port, "srvr").flatMap((answer) -> field(answer, "Mode: "));
	}

	/** The member's version line, such as {@code 3.8.0-…}, or empty. */
	public static Optional<String> version(int port) {
		return send(port, "srvr").flatMap((answer) -> field(answer, "Zookeeper version: "));
	}

	/** The paths the member keeps watches on, one entry per session and path. */
	public static List<String> watchedPaths(int port) {
		List<String> paths = new ArrayList<>();
		send(port, "wchc").ifPresent((answer) -> {
			for (String line : answer.split("\n")) {
				if (line.startsWith("\t")) {
					paths.add(line.trim());
				}
			}
		});
		return paths;
	}

	private static Optional<String> field(String answer, String prefix) {
		for (String line : answer.split("\n")) {
			if (line.startsWith(prefix)) {
				return Optional.of(line.substring(prefix.length()).trim());
			}
		}
		return Optional.empty();
	}

}
