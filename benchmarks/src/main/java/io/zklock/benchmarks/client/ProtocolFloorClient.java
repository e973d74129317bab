package io.zklock.benchmarks.client;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

import io.zklock.lock.LockMode;

/**
 * The physical limit of an uncontended lock cycle on ZooKeeper, measured rather than derived: a
 * raw ZooKeeper client (no Curator, no lock library) on a session of its own that sends only the
 * two writes of the cycle, the create of an {@code EPHEMERAL_SEQUENTIAL} node (as {@code create2},
 * with the node's Stat in the reply, as zklock's create) and its delete, each a synchronous call
 * answered on the ZooKeeper client's I/O thread. It looks at nothing, so it is <strong>not a
 * lock</strong>: two callers both "hold" it. Only for uncontended cycles, where it stands beside
 * the libraries in one interleaved run, so that the distance of each from it is what the library
 * adds; a contended load would fail its exclusion check.
 */
public final class ProtocolFloorClient implements LockClient {

	private static final int SESSION_TIMEOUT_MS = 60_000;

	private static final byte[] NO_DATA = new byte[0];

	private final ZooKeeper zooKeeper;

	private final String root;

	private ProtocolFloorClient(ZooKeeper zooKeeper, String root) {
		this.zooKeeper = zooKeeper;
		this.root = root;
	}

	/**
	 * Connects a raw ZooKeeper client of its own and makes its root.
	 * @param connectString the server's connect string
	 * @param root the ZooKeeper path under which the nodes are made, such as
	 * {@code "/bench/peers-uncontended"}; {@code /floor} is appended
	 * @return the connected client
	 * @throws IOException if the client cannot be made
	 * @throws InterruptedException if interrupted while connecting
	 * @throws KeeperException if the root cannot be made
	 * @throws IllegalStateException if it does not connect within 30 s
	 */
	public static ProtocolFloorClient connect(String connectString, String root)
			throws IOException, InterruptedException, KeeperException {
		CountDownLatch connected = new CountDownLatch(1);
		ZooKeeper zooKeeper = new ZooKeeper(connectString, SESSION_TIMEOUT_MS, (event) -> {
			if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
				connected.countDown();
			}
		});
		if (!connected.await(30, TimeUnit.SECONDS)) {
			zooKeeper.close();
			throw new IllegalStateException("Could not connect to ZooKeeper at " + connectString + " within 30 s");
		}
		ProtocolFloorClient client = new ProtocolFloorClient(zooKeeper, root + "/floor");
		client.makeParents(client.root + "/" + "solo");
		return client;
	}

	private void makeParents(String path) throws KeeperException, InterruptedException {
		StringBuilder prefix = new StringBuilder();
		for (String segment : path.substring(1).split("/")) {
			prefix.append('/').append(segment);
			try {
				this.zooKeeper.create(prefix.toString(), NO_DATA, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
			}
			catch (KeeperException.NodeExistsException ex) {
				// made already
			}
		}
	}

	/**
	 * Creates a node under the lock path and returns what deletes it.
	 * @param lockPath the lock path, such as {@code "solo"}; made by {@link #connect} for "solo"
	 * @param mode ignored: the floor has no modes
	 */
	@Override
	public Held lock(String lockPath, LockMode mode) throws Exception {
		String node = this.zooKeeper.create(zooKeeperPath(lockPath) + "/lock-", NO_DATA, ZooDefs.Ids.OPEN_ACL_UNSAFE,
				CreateMode.EPHEMERAL_SEQUENTIAL, new Stat());
		return () -> this.zooKeeper.delete(node, -1);
	}

	/** As {@link #lock(String, LockMode)}: the floor never waits. */
	@Override
	public Held lock(String lockPath, LockMode mode, Duration wait) throws Exception {
		return lock(lockPath, mode);
	}

	@Override
	public String zooKeeperPath(String lockPath) {
		return this.root + "/" + lockPath;
	}

	@Override
	public void close() {
		try {
			this.zooKeeper.close();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
