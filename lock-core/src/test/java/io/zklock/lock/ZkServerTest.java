package io.zklock.lock;

import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * Base of the lock-core test classes that share one real server per class
 * ({@link ZkTestSupport#startServer()}) and fresh clients per test.
 */
public abstract class ZkServerTest {

	protected static TestingServer server;

	protected ZkTestSupport.Clients clients;

	@BeforeAll
	static void startServer() throws Exception {
		server = ZkTestSupport.startServer();
	}

	@AfterAll
	static void stopServer() throws Exception {
		server.close();
	}

	@BeforeEach
	void createClients() {
		this.clients = new ZkTestSupport.Clients(server);
	}

	@AfterEach
	void closeClients() {
		this.clients.close();
	}

}
