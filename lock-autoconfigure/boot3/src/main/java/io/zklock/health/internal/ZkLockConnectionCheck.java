package io.zklock.health.internal;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.jspecify.annotations.Nullable;

import io.zklock.lock.LockEngine;

/**
 * The health check of zklock's ZooKeeper connection, free of Spring Boot types so that the
 * health indicators of both Boot lines share it ({@code ZkLockHealthIndicator} on Boot 4,
 * {@code ZkLockBoot3HealthIndicator} on Boot 3.5): up while the Curator client is connected to
 * the ensemble (locks can be taken); down while it is suspended, lost, connected to a
 * read-only server only, or not started.
 *
 * <p>
 * Details: {@code clientState} (Curator's {@code LATENT}, {@code STARTED} or
 * {@code STOPPED}), {@code connectionState} (the last {@link ConnectionState} Curator
 * reported, or {@code CONNECTED}/{@code DISCONNECTED} before it reported any),
 * {@code connectString} (without {@code user:password@} credentials), {@code namespace},
 * {@code sessionId} (hexadecimal, while connected) and {@code heldLocks} (lock nodes this
 * instance holds).
 *
 * <p>
 * A check makes no ZooKeeper call, so it answers at once even while the ensemble is
 * unreachable. It follows the client's connection state with a listener from construction
 * until {@link #close()}. Thread-safe.
 */
public final class ZkLockConnectionCheck implements AutoCloseable {

	private static final Pattern CREDENTIALS = Pattern.compile("(^|,)[^,@/]*@");

	private final CuratorFramework client;

	private final @Nullable LockEngine engine;

	private final AtomicReference<@Nullable ConnectionState> lastState = new AtomicReference<>();

	private final ConnectionStateListener stateListener = (client, state) -> this.lastState.set(state);

	/**
	 * Creates a check and starts following the client's connection state.
	 * @param client the Curator client of the locks
	 * @param engine the lock engine whose held locks are counted, or {@code null} to
	 * leave the {@code heldLocks} detail out
	 * @throws IllegalArgumentException if {@code client} is {@code null}
	 */
	public ZkLockConnectionCheck(CuratorFramework client, @Nullable LockEngine engine) {
		if (client == null) {
			throw new IllegalArgumentException("'client' must not be null");
		}
		this.client = client;
		this.engine = engine;
		client.getConnectionStateListenable().addListener(this.stateListener);
	}

	/**
	 * Checks the connection now.
	 * @return whether locks can be taken, and the details
	 */
	public Result check() {
		CuratorFrameworkState clientState = this.client.getState();
		boolean connected = clientState == CuratorFrameworkState.STARTED
				&& this.client.getZookeeperClient().isConnected();
		ConnectionState last = this.lastState.get();
		boolean usable = connected && (last == null || (last.isConnected() && last != ConnectionState.READ_ONLY));
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("clientState", clientState.name());
		details.put("connectionState", describe(connected, last));
		details.put("connectString",
				withoutCredentials(this.client.getZookeeperClient().getCurrentConnectionString()));
		String namespace = this.client.getNamespace();
		if (namespace != null && !namespace.isEmpty()) {
			details.put("namespace", namespace);
		}
		if (connected) {
			try {
				long sessionId = this.client.getZookeeperClient().getZooKeeper().getSessionId();
				details.put("sessionId", "0x" + Long.toHexString(sessionId));
			}
			catch (Exception ex) {
				// the connection went away between the two calls: no session to report
			}
		}
		if (this.engine != null) {
			details.put("heldLocks", this.engine.getHeldLocks().size());
		}
		return new Result(usable, Collections.unmodifiableMap(details));
	}

	/**
	 * Stops following the client's connection state.
	 */
	@Override
	public void close() {
		this.client.getConnectionStateListenable().removeListener(this.stateListener);
	}

	private static String describe(boolean connected, @Nullable ConnectionState last) {
		if (!connected) {
			return (last != null && !last.isConnected()) ? last.name() : "DISCONNECTED";
		}
		return (last != null) ? last.name() : ConnectionState.CONNECTED.name();
	}

	/**
	 * Removes {@code user:password@} prefixes from the hosts of a connect string.
	 * @param connectString a connect string such as {@code "u:p@zk1:2181,zk2:2181/app"}
	 * @return the connect string without credentials, such as
	 * {@code "zk1:2181,zk2:2181/app"}; {@code ""} for {@code null}
	 */
	static String withoutCredentials(@Nullable String connectString) {
		return (connectString != null) ? CREDENTIALS.matcher(connectString).replaceAll("$1") : "";
	}

	/**
	 * The outcome of one check.
	 *
	 * @param up whether locks can be taken
	 * @param details the details, in a stable order
	 */
	public record Result(boolean up, Map<String, Object> details) {

	}

}
