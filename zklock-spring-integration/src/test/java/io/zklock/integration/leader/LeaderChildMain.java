package io.zklock.integration.leader;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A leader instance in a JVM of its own, so that the test can freeze it with {@code SIGSTOP}.
 * Arguments: name, connect string, session timeout in ms, registry kind. Reports on standard
 * output, one line each: {@code GRANTED <token>}, {@code REVOKED}, {@code WRITE <token>}; stops
 * when its standard input closes.
 */
public final class LeaderChildMain {

	private LeaderChildMain() {
	}

	public static void main(String[] args) throws Exception {
		LeaderNode.Reporter stdout = new LeaderNode.Reporter() {

			@Override
			public void granted(String instance, long token) {
				print("GRANTED " + token);
			}

			@Override
			public void revoked(String instance) {
				print("REVOKED");
			}

			@Override
			public void write(String instance, long token) {
				print("WRITE " + token);
			}

		};
		try (LeaderNode node = new LeaderNode(args[0], args[1], Duration.ofMillis(Long.parseLong(args[2])),
				RegistryKind.valueOf(args[3]), stdout)) {
			print("STARTED");
			BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
			while (in.readLine() != null) {
				// until the test closes our standard input
			}
		}
		System.exit(0);
	}

	private static synchronized void print(String line) {
		System.out.println(line);
		System.out.flush();
	}

}
