package io.zklock.tlstest;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.ClientInfo;

/**
 * What a {@link TlsZooKeeperServer} knows of a client's session.
 */
public final class TlsSessions {

	private TlsSessions() {
	}

	/**
	 * The subject of the certificate the client presented on its current connection, as the server's {@code x509}
	 * authentication reports it ({@code whoAmI}).
	 * @param client a connected client
	 * @return the subject, such as {@code CN=alice}, or {@code null} if the connection has no x509 identity
	 */
	public static String x509Subject(CuratorFramework client) throws Exception {
		return client.getZookeeperClient()
			.getZooKeeper()
			.whoAmI()
			.stream()
			.filter((info) -> "x509".equals(info.getAuthScheme()))
			.map(ClientInfo::getUser)
			.findFirst()
			.orElse(null);
	}

	/**
	 * The client's session id.
	 * @param client a connected client
	 * @return the id
	 */
	public static long sessionId(CuratorFramework client) throws Exception {
		return client.getZookeeperClient().getZooKeeper().getSessionId();
	}

}
