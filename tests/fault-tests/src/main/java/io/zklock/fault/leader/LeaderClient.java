package io.zklock.fault.leader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Locale;

import io.zklock.fault.contender.ChildSession;
import io.zklock.fault.contender.EventSink;
import io.zklock.leadership.LeaderElection;
import io.zklock.lock.LockEngine;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEventType;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * One leader process's ZooKeeper session and election, built as an application would build them:
 * a namespaced Curator client (standard connection-state error policy, no ensemble tracking, so a
 * proxy in the connect string stays in the path), a {@link LockEngine} and a
 * {@link LeaderElection} with the given lease factor and handover timeout, whose candidate nodes
 * name this process ({@code fault-tests}, the process id as instance). Reports every connection
 * state to the {@link EventSink} ({@code conn <state>}), and the ZooKeeper client's own
 * {@code Disconnected} and {@code SyncConnected} ({@code zk disconnected}, {@code zk syncconnected}).
 */
final class LeaderClient implements AutoCloseable {

	private final ChildSession session;

	private final CuratorFramework client;

	private final LockEngine engine;

	private final LeaderElection election;

	private final EventSink events;

	/**
	 * Connects and waits for the session.
	 * @throws IllegalStateException if no connection is made within twice the session timeout
	 */
	LeaderClient(String id, String connectString, Duration sessionTimeout, double leaseFactor, Duration handover,
			EventSink events) throws InterruptedException {
		this.events = events;
		this.session = new ChildSession(connectString, sessionTimeout, (client) -> listen(client, events));
		this.client = this.session.client();
		this.engine = LockEngine.builder(this.client).rootPath("/locks").localHandoff(false).build();
		this.election = LeaderElection.builder(this.engine)
			.holder("fault-tests", id)
			.leaseFactor(leaseFactor)
			.handoverTimeout(handover)
			.build();
	}

	/**
	 * Reports every connection state ({@code conn <state>}), and the ZooKeeper client's own
	 * {@code Disconnected} and {@code SyncConnected}, to {@code events}.
	 */
	private static void listen(CuratorFramework client, EventSink events) {
		client.getConnectionStateListenable()
			.addListener((c, state) -> events.event("curator", "conn", state.name().toLowerCase(Locale.ROOT), "-", 0,
					null));
		// the ZooKeeper client's own word, on its event thread, when the connection went and came back:
		// the moments the Curator client stops and starts again counting as connected (its SUSPENDED and
		// RECONNECTED are dispatched later, on a thread of its own)
		client.getCuratorListenable().addListener((c, event) -> {
			WatchedEvent watched = event.getWatchedEvent();
			if (event.getType() == CuratorEventType.WATCHED && watched != null
					&& watched.getType() == Watcher.Event.EventType.None) {
				if (watched.getState() == Watcher.Event.KeeperState.Disconnected) {
					events.event("zookeeper", "zk", "disconnected", "-", 0, null);
				}
				else if (watched.getState() == Watcher.Event.KeeperState.SyncConnected) {
					events.event("zookeeper", "zk", "syncconnected", "-", 0, null);
				}
			}
		});
	}

	LeaderElection election() {
		return this.election;
	}

	/** The current session id in hex, or {@code none}. */
	String sessionId() {
		return this.session.sessionId();
	}

	/**
	 * Closes the ZooKeeper client's socket: a connection loss that keeps the session (the client
	 * reconnects within its session timeout).
	 * @return the stamp taken just before, on {@link System#nanoTime()}
	 */
	long dropConnection() {
		try {
			ZooKeeper zooKeeper = this.client.getZookeeperClient().getZooKeeper();
			long at = System.nanoTime();
			this.events.event(at, "main", "nemesis", "drop-connection", "-", 0, null);
			zooKeeper.getTestable().closeSocket();
			return at;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not drop the connection: " + ex, ex);
		}
	}

	@Override
	public void close() {
		this.election.close();
		this.engine.close();
		this.session.close();
	}

}
