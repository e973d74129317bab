package io.zklock.fault.ensemble;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Loopback ports for the members an ensemble starts later, taken below the kernel's ephemeral port
 * range. A port the kernel hands out for {@code bind(0)} is free when asked, but it comes from the
 * range outgoing connections take their local ports from: in the time between the choice and the
 * member's bind, one of the suite's many client connections (leader processes behind their proxies,
 * contenders) can take it. An in-process member that cannot bind makes ZooKeeper's embedded server
 * exit the whole test JVM (its default exit handler, which curator-test's {@code TestingCluster}
 * keeps); a process member fails to start. Below the range only listeners take ports, and the suite's
 * listeners all bind port 0, inside it. Not thread-safe across JVMs: two JVMs may still pick the same
 * port, which each port's bind check makes unlikely.
 */
final class ListenPorts {

	/** The ephemeral range's low end where {@code /proc} does not say (Linux's default). */
	private static final int DEFAULT_EPHEMERAL_LOW = 32768;

	/** The lowest port taken. */
	private static final int LOWEST = 10000;

	private ListenPorts() {
	}

	/**
	 * Distinct loopback ports, each free when checked, below the ephemeral range.
	 * @param count how many
	 * @return the ports
	 */
	static int[] below(int count) {
		int high = ephemeralLow();
		Set<Integer> ports = new LinkedHashSet<>();
		ThreadLocalRandom random = ThreadLocalRandom.current();
		int tries = 0;
		while (ports.size() < count) {
			if (++tries > 10_000) {
				throw new IllegalStateException("No " + count + " free loopback ports between " + LOWEST + " and " + high);
			}
			int port = random.nextInt(LOWEST, high);
			if (!ports.contains(port) && isFree(port)) {
				ports.add(port);
			}
		}
		return ports.stream().mapToInt(Integer::intValue).toArray();
	}

	private static boolean isFree(int port) {
		try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	private static int ephemeralLow() {
		Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
		try {
			if (Files.isReadable(range)) {
				int low = Integer.parseInt(Files.readString(range).trim().split("\\s+")[0]);
				if (low > LOWEST + 1000) {
					return low;
				}
			}
			return DEFAULT_EPHEMERAL_LOW;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (NumberFormatException ex) {
			return DEFAULT_EPHEMERAL_LOW;
		}
	}

}
