package io.zklock.fault.contender;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockEngine;
import io.zklock.lock.event.LockListener;
import io.zklock.lock.event.LockTarget;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ZooKeeper;

/**
 * One contender's ZooKeeper session and lock API, built as an application would build them:
 * a namespaced Curator client with the standard connection-state error policy (SUSPENDED puts
 * held locks in doubt) and {@link ExclusiveLockByCurator} over a {@link LockEngine}, whose
 * connect string stays as given (no ensemble tracking).
 * Reports every lock the engine declares lost to the {@link EventSink}.
 */
final class LockClient implements AutoCloseable {

	private static final Pattern REMOTE_SERVER = Pattern.compile("remoteserver:[^ ]*?:(\\d+)");

	private final ChildSession session;

	private final CuratorFramework client;

	private final LockEngine engine;

	private final ILockByCurator lock;

	/**
	 * Connects and waits for the session.
	 * @param connectString the ensemble, possibly through this contender's proxy
	 * @param sessionTimeout the session timeout
	 * @param events where lock losses are reported
	 * @throws IllegalStateException if no connection is made within twice the session timeout
	 */
	LockClient(String connectString, Duration sessionTimeout, EventSink events) throws InterruptedException {
		this.session = new ChildSession(connectString, sessionTimeout, (client) -> {
		});
		this.client = this.session.client();
		this.engine = localHandoff(LockEngine.builder(this.client).rootPath("/locks")).build();
		this.engine.addListener(new LockListener() {
			@Override
			public void onLost(LockTarget lock, long fencingToken, Duration heldFor) {
				events.event("engine", "lost", "lock", lock.lockPath(), fencingToken, "LOST");
			}
		});
		this.lock = new ExclusiveLockByCurator(this.engine);
	}

	/**
	 * Local handoff as the test JVM set it: {@code -Dzklock.fault.local-handoff=true}, with
	 * {@code -Dzklock.fault.local-handoff.max-handoffs} (8 if absent) and
	 * {@code -Dzklock.fault.local-handoff.max-time} in milliseconds (100 if absent): the suite's short
	 * bounds, so chains end often, unless a test asks for long chains.
	 */
	private static LockEngine.Builder localHandoff(LockEngine.Builder builder) {
		if (!Boolean.getBoolean("zklock.fault.local-handoff")) {
			return builder.localHandoff(false);
		}
		return builder.localHandoff(Integer.getInteger("zklock.fault.local-handoff.max-handoffs", 8),
				Duration.ofMillis(Long.getLong("zklock.fault.local-handoff.max-time", 100)));
	}

	ILockByCurator lock() {
		return this.lock;
	}

	/** The current session id in hex, or {@code none}. */
	String sessionId() {
		return this.session.sessionId();
	}

	/** The client port of the server this session is connected to, or {@code 0}. */
	int serverPort() {
		try {
			ZooKeeper zk = this.client.getZookeeperClient().getZooKeeper();
			Matcher matcher = REMOTE_SERVER.matcher(zk.toString());
			return matcher.find() ? Integer.parseInt(matcher.group(1)) : 0;
		}
		catch (Exception ex) {
			return 0;
		}
	}

	boolean isConnected() {
		return this.client.getZookeeperClient().isConnected();
	}

	@Override
	public void close() {
		this.engine.close();
		this.session.close();
	}

}
