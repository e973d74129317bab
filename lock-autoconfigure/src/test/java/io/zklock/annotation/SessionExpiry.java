package io.zklock.annotation;

import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ZooKeeper;

import static org.awaitility.Awaitility.await;

/** Ends a client's ZooKeeper session now: a twin handle on the same session id closes it. */
public final class SessionExpiry {

	private SessionExpiry() {
	}

	public static void expire(CuratorFramework client, String connectString) throws Exception {
		ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
		ZooKeeper twin = new ZooKeeper(connectString, 4000, (event) -> {
		}, zk.getSessionId(), zk.getSessionPasswd());
		try {
			await().atMost(Duration.ofSeconds(10)).until(() -> twin.getState().isConnected());
		}
		finally {
			twin.close();
		}
	}

}
