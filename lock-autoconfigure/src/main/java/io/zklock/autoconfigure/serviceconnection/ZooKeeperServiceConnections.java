package io.zklock.autoconfigure.serviceconnection;

/**
 * What the two service-connection factories share: the image they match and the connect
 * string they build.
 */
final class ZooKeeperServiceConnections {

	/** The official image's name, as Spring Boot compares it (repository without tag or registry). */
	static final String IMAGE_NAME = "zookeeper";

	/** zklock's auto-configured client needs Curator; without it the factories offer nothing. */
	static final String REQUIRED_CLASS = "org.apache.curator.framework.CuratorFramework";

	private ZooKeeperServiceConnections() {
	}

	/**
	 * One server's entry of a connect string.
	 * @param host a host name or an IPv4 or IPv6 address
	 * @param port the port
	 * @return {@code host:port}, with an IPv6 address in brackets
	 */
	static String hostAndPort(String host, int port) {
		boolean ipv6 = host.indexOf(':') >= 0 && !host.startsWith("[");
		return (ipv6 ? "[" + host + "]" : host) + ":" + port;
	}

}
