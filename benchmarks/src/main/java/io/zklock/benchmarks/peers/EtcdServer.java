package io.zklock.benchmarks.peers;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.zklock.benchmarks.server.ChildProcess;
import io.zklock.benchmarks.server.ProcessCpu;
import io.zklock.benchmarks.server.RequestCounter;

/**
 * Debian's {@code etcd} (package {@code etcd-server}) as a one-member cluster in a child
 * process on {@code 127.0.0.1}, with etcd's recommended automatic compaction. etcd always
 * fsyncs its write-ahead log before it acknowledges a write; where the ZooKeeper server of the
 * same section does not ({@code forceSync=no}), the data directory is on tmpfs
 * ({@code /dev/shm}), where an fsync costs nothing, so that both pay the same for durability.
 * Counts gRPC messages received and Raft proposals committed from its {@code /metrics}.
 */
final class EtcdServer implements AutoCloseable {

	/** The Debian package; the program is {@code etcd}. */
	static final String PACKAGE = "etcd-server";

	static final String PROGRAM = "etcd";

	private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final ChildProcess process;

	private final int port;

	private final boolean onDisk;

	private EtcdServer(ChildProcess process, int port, boolean onDisk) {
		this.process = process;
		this.port = port;
		this.onDisk = onDisk;
	}

	static EtcdServer start(boolean onDisk) throws IOException, InterruptedException {
		Path directory = onDisk ? Files.createTempDirectory("zklock-bench-etcd-")
				: Files.createTempDirectory(Path.of("/dev/shm"), "zklock-bench-etcd-");
		int port = ChildProcess.freeLoopbackPort();
		String peer = "http://127.0.0.1:" + ChildProcess.freeLoopbackPort();
		String client = "http://127.0.0.1:" + port;
		ChildProcess process = ChildProcess.start(PROGRAM,
				List.of(PROGRAM, "--name", "bench", "--data-dir", directory.resolve("data").toString(),
						"--listen-client-urls", client, "--advertise-client-urls", client, "--listen-peer-urls", peer,
						"--initial-advertise-peer-urls", peer, "--initial-cluster", "bench=" + peer,
						"--initial-cluster-state", "new", "--auto-compaction-mode", "revision",
						"--auto-compaction-retention", "100000", "--logger", "zap", "--log-level", "warn"),
				directory);
		EtcdServer server = new EtcdServer(process, port, onDisk);
		process.awaitReady(() -> server.get("/health").contains("true"), 60);
		return server;
	}

	String endpoint() {
		return "http://127.0.0.1:" + this.port;
	}

	String description() {
		return "etcd " + version() + " (one member, data directory " + (this.onDisk ? "on disk" : "on tmpfs") + ")";
	}

	private String version() {
		try {
			String body = get("/version");
			int at = body.indexOf("\"etcdserver\":\"");
			return (at < 0) ? "?" : body.substring(at + 14, body.indexOf('"', at + 14));
		}
		catch (IOException | InterruptedException ex) {
			return "?";
		}
	}

	/** gRPC messages received (a unary call is one, a keep-alive one per renewal), proposals committed, CPU. */
	RequestCounter counter() {
		return () -> {
			double messages = 0;
			double proposals = 0;
			for (String line : get("/metrics").split("\n")) {
				if (line.startsWith("grpc_server_msg_received_total{")) {
					messages += value(line);
				}
				else if (line.startsWith("etcd_server_proposals_committed_total ")) {
					proposals = value(line);
				}
			}
			return new Reading((long) messages, (long) proposals, ProcessCpu.nanos(List.of(this.process.pid())));
		};
	}

	private static double value(String line) {
		return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
	}

	private String get(String path) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create(endpoint() + path)).timeout(Duration.ofSeconds(5)).build();
		return HTTP.send(request, HttpResponse.BodyHandlers.ofString()).body();
	}

	@Override
	public void close() {
		this.process.close();
	}

	private record Reading(long messages, long proposals, long cpuNanos) implements RequestCounter.Reading {

		@Override
		public long requestsSince(RequestCounter.Reading before) {
			return this.messages - ((Reading) before).messages();
		}

		@Override
		public long commitsSince(RequestCounter.Reading before) {
			return this.proposals - ((Reading) before).proposals();
		}

		@Override
		public long serverCpuNanosSince(RequestCounter.Reading before) {
			return (this.cpuNanos < 0) ? -1 : this.cpuNanos - ((Reading) before).cpuNanos();
		}

	}

}
