package io.zklock.benchmarks.peers;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.zklock.benchmarks.server.ChildProcess;
import io.zklock.benchmarks.server.RequestCounter;

/**
 * Debian's {@code redis-server} in a child process on {@code 127.0.0.1}, as Redisson's lock
 * needs it: one server, no persistence ({@code save ""}, {@code appendonly no}: a lock's key
 * lives in memory only, whatever the configuration, unless the server is made to fsync every
 * write, which Redisson's documentation does not ask for). Counts commands with
 * {@code INFO commandstats} and its CPU with {@code INFO cpu}.
 */
final class RedisServer implements AutoCloseable {

	/** The Debian package and program. */
	static final String PACKAGE = "redis-server";

	/**
	 * The commands Redisson sends itself: every lock operation is one Lua script ({@code EVAL}
	 * or {@code EVALSHA}); waiting adds pub/sub subscriptions. The commands a script runs
	 * ({@code HINCRBY}, {@code PEXPIRE}, {@code PUBLISH}, …) are counted by the server too, but
	 * are not requests.
	 */
	private static final Set<String> SENT_BY_CLIENTS = Set.of("eval", "evalsha", "eval_ro", "evalsha_ro", "fcall",
			"subscribe", "unsubscribe", "psubscribe", "punsubscribe", "ssubscribe", "sunsubscribe", "ping", "hello",
			"client", "select", "script");

	private final ChildProcess process;

	private final int port;

	private RedisServer(ChildProcess process, int port) {
		this.process = process;
		this.port = port;
	}

	static RedisServer start() throws IOException, InterruptedException {
		Path directory = Files.createTempDirectory("zklock-bench-redis-");
		int port = ChildProcess.freeLoopbackPort();
		ChildProcess process = ChildProcess.start(PACKAGE,
				List.of(PACKAGE, "--port", Integer.toString(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
						"no", "--dir", directory.toString(), "--loglevel", "warning", "--daemonize", "no"),
				directory);
		RedisServer server = new RedisServer(process, port);
		process.awaitReady(() -> "PONG".equals(server.command("PING")), 30);
		return server;
	}

	String address() {
		return "redis://127.0.0.1:" + this.port;
	}

	String version() {
		try {
			for (String line : command("INFO", "server").split("\r\n")) {
				if (line.startsWith("redis_version:")) {
					return line.substring("redis_version:".length());
				}
			}
		}
		catch (IOException ex) {
			// unknown
		}
		return "?";
	}

	/** The server's command count and CPU time. */
	RequestCounter counter() {
		return () -> reading(command("INFO", "commandstats", "cpu"));
	}

	private static Reading reading(String info) {
		Map<String, Long> calls = new HashMap<>();
		double cpuSeconds = 0;
		for (String line : info.split("\r\n")) {
			if (line.startsWith("cmdstat_")) {
				int colon = line.indexOf(':');
				String name = line.substring("cmdstat_".length(), colon);
				for (String field : line.substring(colon + 1).split(",")) {
					if (field.startsWith("calls=")) {
						calls.put(name, Long.parseLong(field.substring("calls=".length())));
					}
				}
			}
			else if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
				cpuSeconds += Double.parseDouble(line.substring(line.indexOf(':') + 1));
			}
		}
		return new Reading(calls, (long) (cpuSeconds * 1e9));
	}

	/**
	 * Sends one command over a new connection and returns its reply (a status, an integer or a
	 * bulk string, as text).
	 */
	String command(String... words) throws IOException {
		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), this.port)) {
			socket.setSoTimeout(5000);
			StringBuilder request = new StringBuilder("*").append(words.length).append("\r\n");
			for (String word : words) {
				request.append('$').append(word.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(word)
					.append("\r\n");
			}
			OutputStream out = socket.getOutputStream();
			out.write(request.toString().getBytes(StandardCharsets.UTF_8));
			out.flush();
			InputStream in = socket.getInputStream();
			String head = line(in);
			if (head.startsWith("$")) {
				int length = Integer.parseInt(head.substring(1));
				return new String(in.readNBytes(length), StandardCharsets.UTF_8);
			}
			if (head.startsWith("-")) {
				throw new IOException("Redis answered " + head);
			}
			return head.substring(1);
		}
	}

	private static String line(InputStream in) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int b;
		while ((b = in.read()) != -1 && b != '\n') {
			if (b != '\r') {
				line.write(b);
			}
		}
		return line.toString(StandardCharsets.UTF_8);
	}

	@Override
	public void close() {
		this.process.close();
	}

	/** One reading of {@code INFO commandstats} and {@code INFO cpu}. */
	private record Reading(Map<String, Long> calls, long cpuNanos) implements RequestCounter.Reading {

		@Override
		public long requestsSince(RequestCounter.Reading before) {
			return sum(before, true);
		}

		/** The commands Lua scripts ran, for the console. */
		long scriptCommandsSince(RequestCounter.Reading before) {
			return sum(before, false);
		}

		private long sum(RequestCounter.Reading before, boolean sentByClients) {
			Map<String, Long> earlier = ((Reading) before).calls();
			long total = 0;
			for (Map.Entry<String, Long> entry : this.calls.entrySet()) {
				if (!entry.getKey().equals("info") && SENT_BY_CLIENTS.contains(entry.getKey()) == sentByClients) {
					total += entry.getValue() - earlier.getOrDefault(entry.getKey(), 0L);
				}
			}
			return total;
		}

		@Override
		public long serverCpuNanosSince(RequestCounter.Reading before) {
			return this.cpuNanos - ((Reading) before).cpuNanos();
		}

	}

}
