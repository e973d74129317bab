package io.zklock.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import org.apache.zookeeper.client.ConnectStringParser;
import org.apache.zookeeper.common.PathUtils;
import org.jspecify.annotations.Nullable;

/**
 * A ZooKeeper connect string, checked before a client is built: comma-separated
 * {@code host:port} pairs (the port defaults to 2181; IPv6 addresses in brackets, such as
 * {@code [::1]:2181}), optionally followed by a chroot path such as {@code /apps}. The
 * ZooKeeper client would only fail in its own thread and let start-up wait for
 * {@code zklock.zookeeper.block-until-connected}; this fails at once, naming the bad part.
 */
final class ConnectString {

	private static final int DEFAULT_PORT = 2181;

	private final List<Server> servers;

	private ConnectString(List<Server> servers) {
		this.servers = servers;
	}

	/**
	 * Parses and checks a connect string.
	 * @param connectString the connect string
	 * @return the parsed connect string
	 * @throws IllegalArgumentException with a message naming the bad part and what is wrong
	 */
	static ConnectString parse(@Nullable String connectString) {
		if (connectString == null || connectString.isBlank()) {
			throw new IllegalArgumentException("it is empty");
		}
		int scheme = connectString.indexOf("://");
		if (scheme >= 0) {
			throw new IllegalArgumentException(
					"it is a URL, and a connect string has no scheme ('" + connectString.substring(0, scheme + 3) + "')");
		}
		int placeholder = connectString.indexOf("${");
		if (placeholder >= 0) {
			int end = connectString.indexOf('}', placeholder);
			String unresolved = connectString.substring(placeholder, (end >= 0) ? end + 1 : connectString.length());
			String name = unresolved.substring(2, unresolved.length() - ((end >= 0) ? 1 : 0));
			throw new IllegalArgumentException("it holds the placeholder '" + unresolved + "', which nothing resolves: "
					+ "set " + name + " (an environment variable or a property), or give the placeholder a default");
		}
		int slash = connectString.indexOf('/');
		String hosts = (slash >= 0) ? connectString.substring(0, slash) : connectString;
		if (slash >= 0) {
			checkChroot(connectString.substring(slash));
		}
		List<Server> servers = new ArrayList<>();
		for (String entry : hosts.split(",", -1)) {
			String server = entry.trim();
			if (server.isEmpty()) {
				continue;
			}
			servers.add(Server.parse(server));
		}
		if (servers.isEmpty()) {
			throw new IllegalArgumentException("it names no server");
		}
		try {
			new ConnectStringParser(connectString);
		}
		catch (RuntimeException ex) {
			throw new IllegalArgumentException("ZooKeeper cannot parse it: " + ex.getMessage(), ex);
		}
		return new ConnectString(List.copyOf(servers));
	}

	/**
	 * The servers it names.
	 * @return the servers, in order
	 */
	List<Server> servers() {
		return this.servers;
	}

	private static void checkChroot(String chroot) {
		if (chroot.equals("/")) {
			return;
		}
		try {
			PathUtils.validatePath(chroot);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("its chroot '" + chroot + "' is invalid: " + ex.getMessage(), ex);
		}
	}

	/**
	 * One server of a connect string.
	 *
	 * @param host the host name or address, without brackets
	 * @param port the port
	 */
	record Server(String host, int port) {

		static Server parse(String server) {
			String host;
			String port;
			if (server.startsWith("[")) {
				int close = server.indexOf(']');
				if (close < 0) {
					throw invalid(server, "the IPv6 address has no closing ']'");
				}
				host = server.substring(1, close);
				String rest = server.substring(close + 1);
				if (!rest.isEmpty() && !rest.startsWith(":")) {
					throw invalid(server, "'" + rest + "' follows the IPv6 address; write '[address]:port'");
				}
				port = rest.isEmpty() ? null : rest.substring(1);
				if (host.isEmpty() || !host.matches("[0-9A-Fa-f:.%a-zA-Z]+")) {
					throw invalid(server, "'" + host + "' is not an IPv6 address");
				}
			}
			else {
				int colon = server.indexOf(':');
				if (colon >= 0 && server.indexOf(':', colon + 1) >= 0) {
					throw invalid(server, "it has more than one ':'; write an IPv6 address in brackets, such as "
							+ "'[::1]:2181'");
				}
				host = (colon >= 0) ? server.substring(0, colon) : server;
				port = (colon >= 0) ? server.substring(colon + 1) : null;
				if (host.isEmpty()) {
					throw invalid(server, "the host is missing");
				}
				if (!host.matches("[A-Za-z0-9._-]+")) {
					throw invalid(server, "host '" + host + "' holds characters a host name cannot have");
				}
			}
			return new Server(host, parsePort(server, port));
		}

		private static int parsePort(String server, @Nullable String port) {
			if (port == null) {
				return DEFAULT_PORT;
			}
			if (port.isEmpty()) {
				throw invalid(server, "the port after ':' is missing");
			}
			int number;
			try {
				number = Integer.parseInt(port);
			}
			catch (NumberFormatException ex) {
				throw invalid(server, "port '" + port + "' is not a number");
			}
			if (number < 1 || number > 65535) {
				throw invalid(server, "port " + number + " is not between 1 and 65535");
			}
			return number;
		}

		private static IllegalArgumentException invalid(String server, String problem) {
			return new IllegalArgumentException("in server '" + server + "', " + problem);
		}

		@Override
		public String toString() {
			return (this.host.indexOf(':') >= 0 ? "[" + this.host + "]" : this.host) + ":" + this.port;
		}

	}

}
