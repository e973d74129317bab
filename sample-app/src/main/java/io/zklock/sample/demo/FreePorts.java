package io.zklock.sample.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Finds free TCP ports on the loopback address for the demo's instances.
 */
final class FreePorts {

	private FreePorts() {
	}

	/**
	 * Distinct ports that were free on 127.0.0.1 a moment ago.
	 */
	static List<Integer> pick(int count) {
		Set<Integer> ports = new LinkedHashSet<>();
		while (ports.size() < count) {
			ports.add(pick());
		}
		return List.copyOf(ports);
	}

	/**
	 * A port that was free on 127.0.0.1 a moment ago; another process may take it before the
	 * caller binds it, which is unlikely on a loopback-only demo.
	 */
	static int pick() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			socket.setReuseAddress(true);
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot find a free port on the loopback address", ex);
		}
	}

}
