package io.zklock.integration.leader;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooKeeper;

/**
 * Expires a client's ZooKeeper session at the server, at once: a second handle attaches to the
 * session with its id and password and closes it, so the server deletes the session's
 * ephemeral nodes and the client learns of the expiry at its next contact (the technique of
 * ZooKeeper's own tests and Curator's former {@code KillSession}).
 */
public final class Sessions {

	private Sessions() {
	}

	public static void expire(CuratorFramework client, String serverConnectString) throws Exception {
		ZooKeeper own = client.getZookeeperClient().getZooKeeper();
		CountDownLatch connected = new CountDownLatch(1);
		ZooKeeper twin = new ZooKeeper(serverConnectString, own.getSessionTimeout(), (event) -> {
			if (event.getState() == KeeperState.SyncConnected) {
				connected.countDown();
			}
		}, own.getSessionId(), own.getSessionPasswd());
		try {
			if (!connected.await(10, TimeUnit.SECONDS)) {
				throw new IllegalStateException("Could not attach to session 0x" + Long.toHexString(own.getSessionId()));
			}
		}
		finally {
			twin.close();
		}
	}

}
