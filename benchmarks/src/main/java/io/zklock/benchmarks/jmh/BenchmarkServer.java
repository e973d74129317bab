package io.zklock.benchmarks.jmh;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import io.zklock.benchmarks.server.InProcessZooKeeper;
import io.zklock.benchmarks.server.ZooKeeperServer;

/**
 * The server a JMH fork runs against: the standalone server the driver started (its connect
 * string passed as the {@code connectString} parameter), or, when that parameter is empty, an
 * in-process server started inside the fork.
 */
@State(Scope.Benchmark)
public class BenchmarkServer {

	/** The connect string of a running server; empty to start one in this JVM. */
	@Param("")
	public String connectString;

	private ZooKeeperServer inProcess;

	/**
	 * Starts the in-process server if no connect string was given.
	 * @throws Exception if it does not start
	 */
	@Setup(Level.Trial)
	public void start() throws Exception {
		if (this.connectString == null || this.connectString.isBlank()) {
			this.inProcess = InProcessZooKeeper.start();
		}
	}

	/**
	 * The connect string to use.
	 * @return the server's connect string
	 */
	public String connectString() {
		return (this.inProcess != null) ? this.inProcess.connectString() : this.connectString;
	}

	/** Stops the in-process server, if any. */
	@TearDown(Level.Trial)
	public void stop() {
		if (this.inProcess != null) {
			this.inProcess.close();
		}
	}

}
