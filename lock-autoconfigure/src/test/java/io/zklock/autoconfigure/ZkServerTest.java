package io.zklock.autoconfigure;

import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Base of the test classes of zklock-spring-boot that need a ZooKeeper server: one real server
 * per class, started before the class's fields are initialised.
 */
public abstract class ZkServerTest {

	/** This class's server. */
	protected static TestingServer server;

	@BeforeAll
	static void startServer() throws Exception {
		server = new TestingServer(true);
	}

	@AfterAll
	static void stopServer() throws Exception {
		server.close();
	}

}
