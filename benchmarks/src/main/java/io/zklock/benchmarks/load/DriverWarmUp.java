package io.zklock.benchmarks.load;

import java.time.Duration;
import java.util.List;

import io.zklock.benchmarks.client.Library;
import io.zklock.benchmarks.server.ZooKeeperServer;

/**
 * Warms up the driver JVM and the server before the scenarios: every library runs
 * uncontended, contended and (where it has them) read/write cycles for a while, so that the JIT
 * has compiled the paths of all of them and the first library measured does not meet a colder
 * JVM or server than the others.
 */
public final class DriverWarmUp {

	private static final Duration WINDOW = Duration.ofMillis(100);

	private DriverWarmUp() {
	}

	/**
	 * Runs the warm-up.
	 * @param server the server
	 * @param libraries the libraries to warm up
	 * @param perLibrary how long each library runs, in total
	 * @throws Exception if a library fails
	 */
	public static void run(ZooKeeperServer server, List<Library> libraries, Duration perLibrary) throws Exception {
		ContendedLoad load = new ContendedLoad(server, "/bench/warm-up");
		Duration third = perLibrary.dividedBy(3);
		for (Library library : libraries) {
			load.run(library, new LoadSpec(1, 1, "solo", 0, third, WINDOW, false));
			load.run(library, new LoadSpec(4, 2, "hot", 0, third, WINDOW, false));
			if (library.supportsReadWrite()) {
				load.run(library, new LoadSpec(4, 1, "catalog", 0.1, third, WINDOW, false));
			}
		}
	}

	/**
	 * Warms up the peers' clients and servers (and their JITs) the same way, exclusive locks only.
	 * @param contenders the peers
	 * @param perContender how long each runs, in total
	 * @throws Exception if a peer fails
	 */
	public static void contenders(List<Contender> contenders, Duration perContender) throws Exception {
		ContendedLoad load = new ContendedLoad(null, null, false);
		Duration half = perContender.dividedBy(2);
		for (Contender contender : contenders) {
			load.run(contender, new LoadSpec(1, 1, "warm-up-solo", 0, half, WINDOW, false));
			load.run(contender, new LoadSpec(4, 2, "warm-up-hot", 0, half, WINDOW, false));
		}
	}

}
