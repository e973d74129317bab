package io.zklock.benchmarks.leadership;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A leader's proxy against an echo server on loopback: it forwards, drops every byte while
 * black-holed (the connection stays open), and a reset closes the connection at once.
 */
@Timeout(30)
class LeaderProxyTests {

	@Test
	void shouldForwardDropWhileBlackHoledAndCloseOnReset() throws Exception {
		try (ServerSocket echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
			Thread server = new Thread(() -> serve(echo), "echo");
			server.setDaemon(true);
			server.start();
			try (LeaderProxy proxy = new LeaderProxy("test", List.of(echo.getLocalPort()))) {
				int port = Integer.parseInt(proxy.connectString().split(":")[1]);
				try (Socket client = new Socket(InetAddress.getLoopbackAddress(), port)) {
					client.setSoTimeout(500);
					OutputStream out = client.getOutputStream();
					InputStream in = client.getInputStream();
					out.write('a');
					assertThat(in.read()).isEqualTo('a');

					proxy.blackHole();
					out.write('b');
					assertThatExceptionOfType(SocketTimeoutException.class).isThrownBy(in::read);
				}
				proxy.heal();
				try (Socket client = new Socket(InetAddress.getLoopbackAddress(), port)) {
					client.setSoTimeout(5_000);
					client.getOutputStream().write('c');
					assertThat(client.getInputStream().read()).isEqualTo('c');
					proxy.reset();
					assertThat(client.getInputStream().read()).as("read after a reset").isEqualTo(-1);
				}
			}
		}
	}

	private static void serve(ServerSocket echo) {
		while (!echo.isClosed()) {
			try {
				Socket socket = echo.accept();
				Thread pump = new Thread(() -> {
					try (socket) {
						int b;
						while ((b = socket.getInputStream().read()) >= 0) {
							socket.getOutputStream().write(b);
						}
					}
					catch (Exception ex) {
						// closed
					}
				});
				pump.setDaemon(true);
				pump.start();
			}
			catch (Exception ex) {
				return;
			}
		}
	}

}
