package io.zklock.autoconfigure;

import java.net.InetAddress;
import java.net.ServerSocket;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link EnsembleProbe}, the per-server reasons an unreachable ensemble's start-up
 * failure gives.
 */
@Timeout(30)
class EnsembleProbeTests {

	@Test
	void shouldTellRefusedUnknownAndListeningServersApart() throws Exception {
		try (ServerSocket listening = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			String connectString = "127.0.0.1:1,no-such-host.invalid:2181,127.0.0.1:" + listening.getLocalPort();
			assertThat(EnsembleProbe.describe(ConnectString.parse(connectString).servers()))
				.isEqualTo("127.0.0.1:1: connection refused; no-such-host.invalid:2181: unknown host; 127.0.0.1:"
						+ listening.getLocalPort() + ": accepts TCP connections, but no ZooKeeper session was "
						+ "established");
		}
	}

	@Test
	void shouldProbeAtMostFiveServers() {
		String connectString = "127.0.0.1:1,127.0.0.1:2,127.0.0.1:3,127.0.0.1:4,127.0.0.1:5,127.0.0.1:6,127.0.0.1:7";
		assertThat(EnsembleProbe.describe(ConnectString.parse(connectString).servers()))
			.startsWith("127.0.0.1:1: connection refused; ")
			.endsWith("127.0.0.1:5: connection refused; 2 more not probed");
	}

}
