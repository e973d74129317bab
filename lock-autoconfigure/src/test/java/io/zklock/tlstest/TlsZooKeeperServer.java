package io.zklock.tlstest;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * A real ZooKeeper server (the {@code zookeeper} jar of the test class path, {@code ZooKeeperServerMain}) in a
 * child JVM, serving only a secure client port on 127.0.0.1 that requires a client certificate
 * ({@code ssl.clientAuth=need}) and authenticates clients by it ({@code x509}: a session's {@code whoAmI()} names
 * its certificate's subject). A child JVM, because ZooKeeper's server reads its TLS settings from JVM-wide system
 * properties on every connection, and those would leak into every {@code ZKClientConfig} the test JVM creates.
 */
public final class TlsZooKeeperServer implements AutoCloseable {

	private final Process process;

	private final int port;

	private final Path log;

	private TlsZooKeeperServer(Process process, int port, Path log) {
		this.process = process;
		this.port = port;
		this.log = log;
	}

	/**
	 * Starts a server and waits until its secure port accepts connections.
	 * @param dir where its configuration, data and log go
	 * @param identity the server's key and certificate
	 * @param trustedClients the client certificates it accepts
	 * @return the running server
	 */
	public static TlsZooKeeperServer start(Path dir, TlsIdentity identity, TlsIdentity... trustedClients)
			throws Exception {
		Files.createDirectories(dir.resolve("data"));
		Path trust = TlsIdentity.trustStore(dir.resolve("server-trust.p12"), "PKCS12", trustedClients);
		int port;
		try (ServerSocket socket = new ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		List<String> config = List.of("tickTime=500", "dataDir=" + dir.resolve("data"), "secureClientPort=" + port,
				"secureClientPortAddress=127.0.0.1", "serverCnxnFactory=org.apache.zookeeper.server.NettyServerCnxnFactory",
				"ssl.keyStore.location=" + identity.pkcs12(), "ssl.keyStore.password=" + TlsIdentity.PASSWORD,
				"ssl.trustStore.location=" + trust, "ssl.trustStore.password=" + TlsIdentity.PASSWORD,
				"ssl.clientAuth=need", "authProvider.x509=org.apache.zookeeper.server.auth.X509AuthenticationProvider",
				"admin.enableServer=false");
		Path cfg = Files.write(dir.resolve("zoo.cfg"), config);
		String classpath = System.getProperty("surefire.test.class.path");
		if (classpath == null || classpath.isBlank()) {
			classpath = System.getProperty("java.class.path");
		}
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
			.toString(), "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData",
				"-Djava.io.tmpdir=" + dir, "-cp", classpath, "org.apache.zookeeper.server.ZooKeeperServerMain",
				cfg.toString()));
		Path log = dir.resolve("server.log");
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		TlsZooKeeperServer server = new TlsZooKeeperServer(process, port, log);
		try {
			await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(server::accepts);
			return server;
		}
		catch (RuntimeException ex) {
			server.close();
			throw new IllegalStateException("The TLS ZooKeeper server did not come up: " + Files.readString(log), ex);
		}
	}

	private boolean accepts() {
		if (!this.process.isAlive()) {
			throw new IllegalStateException("exited with " + this.process.exitValue());
		}
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", this.port), 200);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	/** Its secure client port (on 127.0.0.1). */
	public int port() {
		return this.port;
	}

	/** Its log, for failure messages. */
	public Path log() {
		return this.log;
	}

	@Override
	public void close() throws Exception {
		this.process.destroy();
		if (!this.process.waitFor(20, TimeUnit.SECONDS)) {
			this.process.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
		}
	}

}
