package io.zklock.benchmarks.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;

import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.server.command.FourLetterCommands;

/**
 * A real ZooKeeper server inside the benchmark JVM: curator-test's {@link TestingServer} on a
 * free loopback port. Clients still talk to it over TCP, but share the CPU and heap with it.
 */
public final class InProcessZooKeeper implements ZooKeeperServer {

	private final TestingServer server;

	private InProcessZooKeeper(TestingServer server) {
		this.server = server;
	}

	/**
	 * Starts a server on a free loopback port, with ZooKeeper's default container reaper.
	 * @return the running server
	 * @throws Exception if it does not start
	 */
	public static InProcessZooKeeper start() throws Exception {
		return start(false);
	}

	/**
	 * Starts a server on a free loopback port.
	 * @param fastReaper whether empty containers are reaped every 250 ms without a rate limit
	 * @return the running server
	 * @throws Exception if it does not start
	 */
	public static synchronized InProcessZooKeeper start(boolean fastReaper) throws Exception {
		ServerSettings.systemProperties(fastReaper).forEach(System::setProperty);
		// the whitelist is read once per JVM; read it again now that it is set
		FourLetterCommands.resetWhiteList();
		Map<String, Object> properties = new HashMap<>(ServerSettings.configProperties());
		properties.remove("tickTime");
		properties.remove("maxClientCnxns");
		InstanceSpec spec = new InstanceSpec(null, -1, -1, -1, true, -1, 2000, 0, properties, "127.0.0.1");
		try {
			// the reaper reads its settings while the server starts, which the constructor waits for
			return new InProcessZooKeeper(new TestingServer(spec, true));
		}
		finally {
			ServerSettings.fastReaper().keySet().forEach(System::clearProperty);
		}
	}

	@Override
	public String connectString() {
		return this.server.getConnectString();
	}

	@Override
	public int port() {
		return this.server.getPort();
	}

	@Override
	public String description() {
		return "in-process (curator-test TestingServer, ZooKeeper " + org.apache.zookeeper.Version.getVersion()
				+ ")";
	}

	@Override
	public void close() {
		try {
			this.server.close();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not stop the in-process ZooKeeper server on port " + port(), ex);
		}
	}

}
