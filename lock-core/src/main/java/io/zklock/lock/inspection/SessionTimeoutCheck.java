package io.zklock.lock.inspection;

import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.utils.DefaultZookeeperFactory;
import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs one WARN for each ZooKeeper session whose timeout the server granted differs from the one
 * the client asked for. A server fits every session's timeout into its
 * {@code [minSessionTimeout, maxSessionTimeout]}, by default 2 and 20 times its {@code tickTime}
 * (the ZooKeeper Administrator's Guide), and says so only in the client's INFO line
 * {@code Session establishment complete …, negotiated timeout = …}. A shorter grant expires the
 * session, and with it every lock it holds, after a shorter pause than the application was
 * configured to survive; a longer one keeps the locks of a dead instance held for longer. Debian's
 * packaged server, for one, sets {@code tickTime=2000} and no maximum, so a 60 s request is granted
 * 40 s.
 *
 * <p>
 * A built Curator client does not tell what it asked for, so this sits where the request is made:
 * it decorates the client's {@link ZookeeperFactory}, which receives the requested timeout for
 * every ZooKeeper handle the client creates (one per session), and it reads the granted timeout
 * from the handle ({@link ZooKeeper#getSessionTimeout()}) once it is connected. Install it on the
 * builder after every other change to its factory:
 *
 * <pre class="code">
 * CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
 *     .connectString("zk1:2181,zk2:2181,zk3:2181")
 *     .sessionTimeoutMs(60_000)
 *     .retryPolicy(new ExponentialBackoffRetry(100, 3));
 * CuratorFramework client = SessionTimeoutCheck.install(builder).build();
 * </pre>
 *
 * zklock's Spring Boot auto-configuration installs it on the client it builds; a
 * {@code CuratorFramework} of the application's own needs it installed as above. Thread-safe.
 */
public final class SessionTimeoutCheck implements ZookeeperFactory {

	private static final Logger logger = LoggerFactory.getLogger(SessionTimeoutCheck.class);

	private final ZookeeperFactory delegate;

	private final String setting;

	/**
	 * Creates the check around a factory.
	 * @param delegate the factory that creates the ZooKeeper handles, such as the builder's
	 * {@link CuratorFrameworkFactory.Builder#getZookeeperFactory()}
	 * @param setting what set the requested timeout, named in the warning, such as
	 * {@code "zklock.zookeeper.session-timeout"}; {@code null} for the client's
	 * {@code sessionTimeoutMs}
	 * @throws IllegalArgumentException if {@code delegate} is {@code null}
	 */
	public SessionTimeoutCheck(ZookeeperFactory delegate, @Nullable String setting) {
		if (delegate == null) {
			throw new IllegalArgumentException("'delegate' must not be null; pass the builder's getZookeeperFactory()");
		}
		this.delegate = delegate;
		this.setting = (setting != null && !setting.isBlank()) ? setting : "the client's sessionTimeoutMs";
	}

	/**
	 * Installs the check on a builder, around the factory it has now.
	 * @param builder the builder, after any {@code zookeeperFactory(…)} of its own
	 * @return the same builder
	 * @throws IllegalArgumentException if {@code builder} is {@code null}
	 */
	public static CuratorFrameworkFactory.Builder install(CuratorFrameworkFactory.Builder builder) {
		return install(builder, null);
	}

	/**
	 * Installs the check on a builder, around the factory it has now, naming the setting that
	 * asked for the timeout in its warning.
	 * @param builder the builder, after any {@code zookeeperFactory(…)} of its own
	 * @param setting what set the requested timeout, such as
	 * {@code "zklock.zookeeper.session-timeout"}; {@code null} for the client's
	 * {@code sessionTimeoutMs}
	 * @return the same builder
	 * @throws IllegalArgumentException if {@code builder} is {@code null}
	 */
	public static CuratorFrameworkFactory.Builder install(CuratorFrameworkFactory.Builder builder,
			@Nullable String setting) {
		if (builder == null) {
			throw new IllegalArgumentException("'builder' must not be null");
		}
		ZookeeperFactory current = builder.getZookeeperFactory();
		return builder.zookeeperFactory(
				new SessionTimeoutCheck((current != null) ? current : new DefaultZookeeperFactory(), setting));
	}

	@Override
	public ZooKeeper newZooKeeper(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly)
			throws Exception {
		SessionWatcher session = new SessionWatcher(watcher, sessionTimeout, this.setting);
		return session.attach(this.delegate.newZooKeeper(connectString, sessionTimeout, session, canBeReadOnly));
	}

	@Override
	public ZooKeeper newZooKeeper(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly,
			ZKClientConfig zkClientConfig) throws Exception {
		SessionWatcher session = new SessionWatcher(watcher, sessionTimeout, this.setting);
		return session.attach(
				this.delegate.newZooKeeper(connectString, sessionTimeout, session, canBeReadOnly, zkClientConfig));
	}

	/**
	 * The default watcher of one ZooKeeper handle, hence of one session: passes every event on to
	 * the client's own watcher, and compares the granted timeout with the requested one when the
	 * handle first connects.
	 */
	private static final class SessionWatcher implements Watcher {

		private final Watcher delegate;

		private final int requested;

		private final String setting;

		private final AtomicBoolean compared = new AtomicBoolean();

		/** Set once the factory returned it: its first event may come before. */
		private volatile @Nullable ZooKeeper zooKeeper;

		SessionWatcher(Watcher delegate, int requested, String setting) {
			this.delegate = delegate;
			this.requested = requested;
			this.setting = setting;
		}

		ZooKeeper attach(ZooKeeper zooKeeper) {
			this.zooKeeper = zooKeeper;
			if (zooKeeper.getState().isConnected()) {
				compare();
			}
			return zooKeeper;
		}

		@Override
		public void process(WatchedEvent event) {
			if (event.getType() == Event.EventType.None && (event.getState() == Event.KeeperState.SyncConnected
					|| event.getState() == Event.KeeperState.ConnectedReadOnly)) {
				compare();
			}
			this.delegate.process(event);
		}

		private void compare() {
			ZooKeeper handle = this.zooKeeper;
			if (handle == null) {
				return;
			}
			int granted = handle.getSessionTimeout();
			if (granted <= 0 || !this.compared.compareAndSet(false, true) || granted == this.requested) {
				return;
			}
			boolean shorter = granted < this.requested;
			logger.warn("The ZooKeeper server granted session 0x{} a timeout of {} ms, not the {} ms asked for ({}): "
					+ "servers fit every session's timeout into [minSessionTimeout, maxSessionTimeout], by default 2 "
					+ "and 20 times their tickTime. {} To get the timeout asked for, {} on every server (zoo.cfg), or "
					+ "ask for {} ms.", Long.toHexString(handle.getSessionId()), granted, this.requested, this.setting,
					shorter ? "The session, and every lock it holds, expires after a pause of " + granted + " ms."
							: "The locks of an instance that dies stay held for " + granted + " ms.",
					shorter ? "raise maxSessionTimeout (or tickTime)" : "lower minSessionTimeout (or tickTime)",
					shorter ? "at most " + granted : "at least " + granted);
		}

	}

}
