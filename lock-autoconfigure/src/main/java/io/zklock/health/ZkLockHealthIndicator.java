package io.zklock.health;

import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.jspecify.annotations.Nullable;

import io.zklock.lock.LockCoordinator;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * {@link org.springframework.boot.health.contributor.HealthIndicator HealthIndicator} of
 * zklock's ZooKeeper connection: {@code UP} while the Curator client is connected to the
 * ensemble (locks can be taken), {@code DOWN} while it is suspended, lost, connected to a
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
 * The check makes no ZooKeeper call, so it answers at once even while the ensemble is
 * unreachable. It follows the client's connection state with a listener from construction
 * until {@link #close()}. Thread-safe.
 */
public class ZkLockHealthIndicator extends AbstractHealthIndicator implements AutoCloseable {

	private static final Pattern CREDENTIALS = Pattern.compile("(^|,)[^,@/]*@");

	private final CuratorFramework client;

	private final @Nullable LockCoordinator coordinator;

	private final AtomicReference<@Nullable ConnectionState> lastState = new AtomicReference<>();

	private final ConnectionStateListener stateListener = (client, state) -> this.lastState.set(state);

	/**
	 * Creates an indicator and starts following the client's connection state.
	 * @param client the Curator client of the locks
	 * @param coordinator the lock engine whose held locks are counted, or {@code null} to
	 * leave the {@code heldLocks} detail out
	 */
	public ZkLockHealthIndicator(CuratorFramework client, @Nullable LockCoordinator coordinator) {
		super("zklock health check failed");
		if (client == null) {
			throw new IllegalArgumentException("'client' must not be null");
		}
		this.client = client;
		this.coordinator = coordinator;
		client.getConnectionStateListenable().addListener(this.stateListener);
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) throws Exception {
		CuratorFrameworkState clientState = this.client.getState();
		boolean connected = clientState == CuratorFrameworkState.STARTED
				&& this.client.getZookeeperClient().isConnected();
		ConnectionState last = this.lastState.get();
		boolean usable = connected && (last == null || (last.isConnected() && last != ConnectionState.READ_ONLY));
		builder.status(usable ? Status.UP : Status.DOWN);
		builder.withDetail("clientState", clientState.name());
		builder.withDetail("connectionState", describe(connected, last));
		builder.withDetail("connectString", withoutCredentials(this.client.getZookeeperClient()
			.getCurrentConnectionString()));
		String namespace = this.client.getNamespace();
		if (namespace != null && !namespace.isEmpty()) {
			builder.withDetail("namespace", namespace);
		}
		if (connected) {
			long sessionId = this.client.getZookeeperClient().getZooKeeper().getSessionId();
			builder.withDetail("sessionId", "0x" + Long.toHexString(sessionId));
		}
		if (this.coordinator != null) {
			builder.withDetail("heldLocks", this.coordinator.getHeldLocks().size());
		}
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

}
