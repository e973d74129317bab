package io.zklock.fault.net;

import java.io.IOException;
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
 * The black-hole proxy in front of an echo server: it forwards, drops everything while
 * black-holed without closing anything, and after the heal closes the broken connection and
 * forwards new ones.
 */
@Timeout(20)
class BlackHoleProxyTests {

	@Test
	void shouldForwardDropWhileBlackHoledAndCloseBrokenConnectionsOnHeal() throws Exception {
		try (ServerSocket echo = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
			Thread echoServer = new Thread(() -> serveEcho(echo));
			echoServer.setDaemon(true);
			echoServer.start();
			try (BlackHoleProxy proxy = new BlackHoleProxy("test", List.of(echo.getLocalPort()))) {
				int port = Integer.parseInt(proxy.connectString().split(":")[1]);
				try (Socket client = new Socket(InetAddress.getLoopbackAddress(), port)) {
					client.setSoTimeout(500);
					assertThat(roundTrip(client, 'a')).isEqualTo('a');

					proxy.blackHole();
					client.getOutputStream().write('b');
					assertThatExceptionOfType(SocketTimeoutException.class).as("nothing comes back, nothing closes")
						.isThrownBy(() -> client.getInputStream().read());

					proxy.heal();
					client.setSoTimeout(5000);
					assertThat(client.getInputStream().read()).as("the broken connection is closed on heal").isEqualTo(-1);
				}
				try (Socket fresh = new Socket(InetAddress.getLoopbackAddress(), port)) {
					fresh.setSoTimeout(5000);
					assertThat(roundTrip(fresh, 'c')).as("a new connection after the heal").isEqualTo('c');
				}
			}
		}
	}

	private static char roundTrip(Socket socket, char c) throws IOException {
		socket.getOutputStream().write(c);
		socket.getOutputStream().flush();
		return (char) socket.getInputStream().read();
	}

	private static void serveEcho(ServerSocket server) {
		while (!server.isClosed()) {
			try {
				Socket socket = server.accept();
				Thread echo = new Thread(() -> {
					try (socket; InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream()) {
						int b;
						while ((b = in.read()) >= 0) {
							out.write(b);
							out.flush();
						}
					}
					catch (IOException ex) {
						// closed
					}
				});
				echo.setDaemon(true);
				echo.start();
			}
			catch (IOException ex) {
				return;
			}
		}
	}

}
