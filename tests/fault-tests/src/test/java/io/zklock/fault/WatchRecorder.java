package io.zklock.fault;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.zklock.fixtures.ZooKeeperHandles;
import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.admin.ZooKeeperAdmin;

import static org.awaitility.Awaitility.await;

/**
 * Records the watches a client's waiters set on their blockers, at the client boundary (a
 * {@link ZookeeperFactory} whose handles note each call): the persistent watch on an exclusive
 * blocker ({@code addWatch}) and the data watch on a reader ({@code getData} with a watcher), each
 * with its full path (namespace included), in the order sent. Every handle the factory makes (one
 * per session) shares the record.
 *
 * <p>
 * Thread-safe.
 */
final class WatchRecorder {

	private final List<String> watched = new CopyOnWriteArrayList<>();

	ZookeeperFactory factory() {
		return ZooKeeperHandles.factory((connectString, sessionTimeout, watcher, canBeReadOnly,
				config) -> new ZooKeeperAdmin(connectString, sessionTimeout, watcher, canBeReadOnly, config) {

			@Override
			public void getData(String path, Watcher dataWatcher, AsyncCallback.DataCallback callback,
					Object context) {
				super.getData(path, dataWatcher, callback, context);
				if (dataWatcher != null) {
					WatchRecorder.this.watched.add(path);
				}
			}

			@Override
			public void addWatch(String basePath, Watcher watcher, AddWatchMode mode, AsyncCallback.VoidCallback callback,
					Object context) {
				super.addWatch(basePath, watcher, mode, callback, context);
				WatchRecorder.this.watched.add(basePath);
			}

		});
	}

	/** How many watches were set on {@code path}. */
	int count(String path) {
		return (int) this.watched.stream().filter(path::equals).count();
	}

	/**
	 * Waits until {@code count} watches were set in all.
	 * @return the path of the first
	 */
	String awaitWatches(int count, Duration patience) {
		await(count + " watch(es) set on a blocker").atMost(patience).until(() -> this.watched.size() >= count);
		return this.watched.get(0);
	}

}
