package io.zklock.autoconfigure;

import java.util.Map;

import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;

/**
 * A real ZooKeeper server on a free port of 127.0.0.1 only.
 */
public final class LoopbackTestingServer {

	private LoopbackTestingServer() {
	}

	/**
	 * Starts a server.
	 * @return the running server; close it when done
	 */
	public static TestingServer start() {
		try {
			return new TestingServer(new InstanceSpec(null, 0, -1, -1, true, -1, -1, -1,
					Map.of("clientPortAddress", "127.0.0.1"), "127.0.0.1"), true);
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not start a ZooKeeper server: " + ex, ex);
		}
	}

}
