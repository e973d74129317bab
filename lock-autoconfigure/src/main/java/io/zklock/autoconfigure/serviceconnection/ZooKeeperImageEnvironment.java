package io.zklock.autoconfigure.serviceconnection;

import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * What the environment of a container of the official {@code zookeeper} image says about its
 * client port. The image writes its {@code zoo.cfg} from environment variables: the servers of
 * {@code ZOO_SERVERS} ({@code server.1=localhost:2888:3888;2181} when unset), the entry of
 * {@code ZOO_MY_ID} (default 1) naming the client port after its {@code ;}, and extra lines in
 * {@code ZOO_CFG_EXTRA}, where a {@code clientPort=} may stand. Port 2181 when neither names one.
 * Source: the image's {@code docker-entrypoint.sh} and ZooKeeper's dynamic-configuration
 * server syntax ({@code server.<id>=<address>:<quorum port>:<election port>;[<client address>:]<client port>}).
 */
final class ZooKeeperImageEnvironment {

	/** ZooKeeper's client port, the one the image exposes. */
	static final int DEFAULT_CLIENT_PORT = 2181;

	private final int clientPort;

	ZooKeeperImageEnvironment(Map<String, @Nullable String> env) {
		Integer fromServers = clientPortOfServer(env.get("ZOO_SERVERS"), env.get("ZOO_MY_ID"));
		Integer fromExtra = clientPortOfExtra(env.get("ZOO_CFG_EXTRA"));
		this.clientPort = (fromServers != null) ? fromServers : (fromExtra != null) ? fromExtra : DEFAULT_CLIENT_PORT;
	}

	/**
	 * The port, inside the container, where the server takes client connections.
	 * @return the client port
	 */
	int getClientPort() {
		return this.clientPort;
	}

	private static @Nullable Integer clientPortOfServer(@Nullable String servers, @Nullable String myId) {
		if (servers == null) {
			return null;
		}
		String prefix = "server." + ((myId != null && !myId.isBlank()) ? myId.trim() : "1") + "=";
		for (String server : servers.trim().split("\\s+")) {
			int semicolon = server.indexOf(';');
			if (server.startsWith(prefix) && semicolon >= 0) {
				String client = server.substring(semicolon + 1);
				return port(client.substring(client.lastIndexOf(':') + 1));
			}
		}
		return null;
	}

	private static @Nullable Integer clientPortOfExtra(@Nullable String extra) {
		if (extra == null) {
			return null;
		}
		for (String line : extra.trim().split("\\s+")) {
			if (line.startsWith("clientPort=")) {
				return port(line.substring("clientPort=".length()));
			}
		}
		return null;
	}

	private static @Nullable Integer port(String value) {
		try {
			int port = Integer.parseInt(value.trim());
			return (port > 0 && port <= 65535) ? port : null;
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

}
