package io.zklock.autoconfigure;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.stream.Collectors;

import org.apache.zookeeper.client.ZKClientConfig;
import org.jspecify.annotations.Nullable;

/**
 * Tells, after the client failed to connect at start-up, what each server of the connect
 * string does: unknown host, connection refused, no answer, or accepting TCP connections
 * (then ZooKeeper itself, or TLS, is what did not answer; for a TLS client one handshake
 * tells which). One name lookup and one TCP connect per server, for at most
 * {@value #MAX_SERVERS} servers; the start-up failure
 * message carries the result, since the ZooKeeper client's own logs are quiet then.
 */
final class EnsembleProbe {

	static final int MAX_SERVERS = 5;

	private static final int CONNECT_TIMEOUT_MILLIS = 500;

	private EnsembleProbe() {
	}

	/**
	 * Probes the servers.
	 * @param servers the servers of the connect string
	 * @return one clause per server, such as {@code "127.0.0.1:1 refused the connection"},
	 * joined with {@code "; "}
	 */
	static String describe(List<ConnectString.Server> servers) {
		return describe(servers, null);
	}

	/**
	 * Probes the servers, and for a TLS client shakes hands with each that accepts TCP
	 * connections ({@link TlsHandshakeProbe}).
	 * @param servers the servers of the connect string
	 * @param tls the client's configuration if it connects over TLS, else {@code null}
	 * @return one clause per server, joined with {@code "; "}
	 */
	static String describe(List<ConnectString.Server> servers, @Nullable ZKClientConfig tls) {
		String probed = servers.stream()
			.limit(MAX_SERVERS)
			.map((server) -> describe(server, tls))
			.collect(Collectors.joining("; "));
		return (servers.size() > MAX_SERVERS) ? probed + "; " + (servers.size() - MAX_SERVERS) + " more not probed"
				: probed;
	}

	private static String describe(ConnectString.Server server, @Nullable ZKClientConfig tls) {
		InetAddress address;
		try {
			address = InetAddress.getByName(server.host());
		}
		catch (UnknownHostException ex) {
			return server + ": unknown host";
		}
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(address, server.port()), CONNECT_TIMEOUT_MILLIS);
		}
		catch (SocketTimeoutException ex) {
			return server + ": no answer within " + CONNECT_TIMEOUT_MILLIS + " ms";
		}
		catch (ConnectException ex) {
			return server + ": connection refused";
		}
		catch (IOException ex) {
			return server + ": " + ex.getMessage();
		}
		if (tls == null) {
			return server + ": accepts TCP connections, but no ZooKeeper session was established";
		}
		String handshake = TlsHandshakeProbe.describe(tls, server);
		return server + ": accepts TCP connections, "
				+ (handshake.startsWith("completes")
						? "and " + handshake + ", but no ZooKeeper session was established" : "but " + handshake);
	}

}
