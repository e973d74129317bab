package io.zklock.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.zklock.annotation.OnHoldExceeded;
import io.zklock.annotation.OnLockLost;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.core.Ordered;

/**
 * Configuration properties for zklock distributed locks. Each group of properties is a nested
 * class: {@link ZooKeeper} ({@code zklock.zookeeper.*}, with its retry, embedded, auth and ssl
 * groups inside it), {@link LocalHandoff} ({@code zklock.local-handoff.*}),
 * {@link LeakDetection} ({@code zklock.leak-detection.*}) and {@link Leadership}
 * ({@code zklock.leadership.*}, with its {@link Leadership.Role roles}).
 *
 * @author zklock
 */
@ConfigurationProperties("zklock")
public class ZkLockProperties {

	/**
	 * Whether to enable zklock's auto-configuration.
	 */
	private boolean enabled = true;

	/**
	 * ZooKeeper path, inside the client's namespace, under which lock paths live.
	 */
	private String rootPath = "/locks";

	/**
	 * How long @DistributedLock waits for a lock when the annotation sets no wait time.
	 */
	private Duration defaultWaitTime = Duration.ofSeconds(30);

	/**
	 * Order of the @DistributedLock interceptor; it must be lower than the transaction
	 * advisor's order so that the lock wraps the transaction.
	 */
	private int aspectOrder = Ordered.LOWEST_PRECEDENCE - 1;

	/**
	 * What a @DistributedLock method's interceptor does when the lock is lost or put in doubt
	 * while the method runs.
	 */
	private OnLockLost onLockLost = OnLockLost.FAIL;

	/**
	 * Whether a @DistributedLock method that runs inside a transaction it did not start keeps
	 * its lock until that transaction completes, so no other process reads uncommitted state
	 * under the lock.
	 */
	private boolean releaseAfterTransaction = true;

	/**
	 * How long a @DistributedLock call whose work was cancelled where zklock cannot see that
	 * work end (a Flux cut off by its subscriber or by zklock for holdAtMost) keeps
	 * its lock after the cancel, before letting it go with a WARN. Zero releases at once, for
	 * work that stops on cancel.
	 */
	private Duration holdAfterCancel = Duration.ofSeconds(10);

	/**
	 * The holdAtMost of @DistributedLock methods that set none: how long a call should hold
	 * its lock at most before zklock reports it (and acts by on-hold-exceeded). Never releases
	 * the lock. None unless set.
	 */
	private @Nullable Duration defaultHoldAtMost;

	/**
	 * What zklock does, besides reporting it, when a @DistributedLock call holds its lock
	 * past its holdAtMost, for annotations that set no onHoldExceeded: warn, interrupt the
	 * thread running the method, or cancel a stage or publisher.
	 */
	private OnHoldExceeded onHoldExceeded = OnHoldExceeded.WARN;

	/**
	 * Id of this instance (for example its host and port) that every lock node carries, besides
	 * the host name, process id and spring.application.name, to tell holders apart. Empty for none.
	 */
	private @Nullable String instanceId;

	/**
	 * ZooKeeper client settings.
	 */
	private final ZooKeeper zookeeper = new ZooKeeper();

	/**
	 * Local handoff of lock nodes between this application's waiters.
	 */
	private final LocalHandoff localHandoff = new LocalHandoff();

	/**
	 * Detection of lock handles that are never released.
	 */
	private final LeakDetection leakDetection = new LeakDetection();

	/**
	 * Leader election: roles, candidacy and handover.
	 */
	private final Leadership leadership = new Leadership();

	/**
	 * The value of {@code zklock.enabled}.
	 * @return the value
	 */
	public boolean isEnabled() {
		return this.enabled;
	}

	/**
	 * Sets {@code zklock.enabled}.
	 * @param enabled the value
	 */
	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	/**
	 * The value of {@code zklock.root-path}.
	 * @return the value
	 */
	public String getRootPath() {
		return this.rootPath;
	}

	/**
	 * Sets {@code zklock.root-path}.
	 * @param rootPath the value
	 */
	public void setRootPath(String rootPath) {
		this.rootPath = rootPath;
	}

	/**
	 * The value of {@code zklock.default-wait-time}.
	 * @return the value
	 */
	public Duration getDefaultWaitTime() {
		return this.defaultWaitTime;
	}

	/**
	 * Sets {@code zklock.default-wait-time}.
	 * @param defaultWaitTime the value
	 */
	public void setDefaultWaitTime(Duration defaultWaitTime) {
		this.defaultWaitTime = defaultWaitTime;
	}

	/**
	 * The value of {@code zklock.aspect-order}.
	 * @return the value
	 */
	public int getAspectOrder() {
		return this.aspectOrder;
	}

	/**
	 * Sets {@code zklock.aspect-order}.
	 * @param aspectOrder the value
	 */
	public void setAspectOrder(int aspectOrder) {
		this.aspectOrder = aspectOrder;
	}

	/**
	 * The value of {@code zklock.on-lock-lost}.
	 * @return the value
	 */
	public OnLockLost getOnLockLost() {
		return this.onLockLost;
	}

	/**
	 * Sets {@code zklock.on-lock-lost}.
	 * @param onLockLost the value
	 */
	public void setOnLockLost(OnLockLost onLockLost) {
		this.onLockLost = onLockLost;
	}

	/**
	 * The value of {@code zklock.instance-id}.
	 * @return the value, or {@code null} if not set
	 */
	public @Nullable String getInstanceId() {
		return this.instanceId;
	}

	/**
	 * Sets {@code zklock.instance-id}.
	 * @param instanceId the value
	 */
	public void setInstanceId(@Nullable String instanceId) {
		this.instanceId = instanceId;
	}

	/**
	 * The value of {@code zklock.release-after-transaction}.
	 * @return the value
	 */
	public boolean isReleaseAfterTransaction() {
		return this.releaseAfterTransaction;
	}

	/**
	 * Sets {@code zklock.release-after-transaction}.
	 * @param releaseAfterTransaction the value
	 */
	public void setReleaseAfterTransaction(boolean releaseAfterTransaction) {
		this.releaseAfterTransaction = releaseAfterTransaction;
	}

	/**
	 * The value of {@code zklock.hold-after-cancel}.
	 * @return the value
	 */
	public Duration getHoldAfterCancel() {
		return this.holdAfterCancel;
	}

	/**
	 * Sets {@code zklock.hold-after-cancel}.
	 * @param holdAfterCancel the value
	 */
	public void setHoldAfterCancel(Duration holdAfterCancel) {
		this.holdAfterCancel = holdAfterCancel;
	}

	/**
	 * The value of {@code zklock.default-hold-at-most}.
	 * @return the value, or {@code null} for none
	 */
	public @Nullable Duration getDefaultHoldAtMost() {
		return this.defaultHoldAtMost;
	}

	/**
	 * Sets {@code zklock.default-hold-at-most}.
	 * @param defaultHoldAtMost the value, or {@code null} for none
	 */
	public void setDefaultHoldAtMost(@Nullable Duration defaultHoldAtMost) {
		this.defaultHoldAtMost = defaultHoldAtMost;
	}

	/**
	 * The value of {@code zklock.on-hold-exceeded}.
	 * @return the value
	 */
	public OnHoldExceeded getOnHoldExceeded() {
		return this.onHoldExceeded;
	}

	/**
	 * Sets {@code zklock.on-hold-exceeded}.
	 * @param onHoldExceeded the value
	 */
	public void setOnHoldExceeded(OnHoldExceeded onHoldExceeded) {
		this.onHoldExceeded = onHoldExceeded;
	}

	/**
	 * The {@code zklock.zookeeper.*} settings.
	 * @return the settings
	 */
	public ZooKeeper getZookeeper() {
		return this.zookeeper;
	}

	/**
	 * The {@code zklock.local-handoff.*} settings.
	 * @return the settings
	 */
	public LocalHandoff getLocalHandoff() {
		return this.localHandoff;
	}

	/**
	 * The {@code zklock.leak-detection.*} settings.
	 * @return the settings
	 */
	public LeakDetection getLeakDetection() {
		return this.leakDetection;
	}

	/**
	 * The {@code zklock.leadership.*} settings.
	 * @return the settings
	 */
	public Leadership getLeadership() {
		return this.leadership;
	}

	/**
	 * ZooKeeper client settings, {@code zklock.zookeeper.*}.
	 */
	public static class ZooKeeper {

		/**
		 * Comma-separated list of ZooKeeper servers as host:port pairs.
		 */
		private String connectString = "localhost:2181";

		/**
		 * Namespace (chroot) of the Curator client; all lock nodes live below it. Empty for
		 * none.
		 */
		private String namespace = "zklock";

		/**
		 * ZooKeeper session timeout; a holder whose process stops answering loses its locks
		 * this long after its last heartbeat.
		 */
		private Duration sessionTimeout = Duration.ofSeconds(60);

		/**
		 * Time to wait for a connection before an operation fails.
		 */
		private Duration connectionTimeout = Duration.ofSeconds(15);

		/**
		 * Time to wait at start-up for the ensemble to be reached before start-up fails.
		 */
		private Duration blockUntilConnected = Duration.ofSeconds(30);

		/**
		 * Which connection states put held locks in doubt: 'standard' (SUSPENDED and LOST) or
		 * 'session' (only LOST, that is an expired session).
		 */
		private ConnectionStateErrorPolicy connectionStateErrorPolicy = ConnectionStateErrorPolicy.STANDARD;

		/**
		 * Retry policy of the client.
		 */
		private final Retry retry = new Retry();

		/**
		 * In-process ZooKeeper server.
		 */
		private final Embedded embedded = new Embedded();

		/**
		 * Authentication to ZooKeeper.
		 */
		private final Auth auth = new Auth();

		/**
		 * TLS to ZooKeeper.
		 */
		private final Ssl ssl = new Ssl();

		/**
		 * The value of {@code zklock.zookeeper.connect-string}.
		 * @return the value
		 */
		public String getConnectString() {
			return this.connectString;
		}

		/**
		 * Sets {@code zklock.zookeeper.connect-string}.
		 * @param connectString the value
		 */
		public void setConnectString(String connectString) {
			this.connectString = connectString;
		}

		/**
		 * The value of {@code zklock.zookeeper.namespace}.
		 * @return the value
		 */
		public String getNamespace() {
			return this.namespace;
		}

		/**
		 * Sets {@code zklock.zookeeper.namespace}.
		 * @param namespace the value
		 */
		public void setNamespace(String namespace) {
			this.namespace = namespace;
		}

		/**
		 * The value of {@code zklock.zookeeper.session-timeout}.
		 * @return the value
		 */
		public Duration getSessionTimeout() {
			return this.sessionTimeout;
		}

		/**
		 * Sets {@code zklock.zookeeper.session-timeout}.
		 * @param sessionTimeout the value
		 */
		public void setSessionTimeout(Duration sessionTimeout) {
			this.sessionTimeout = sessionTimeout;
		}

		/**
		 * The value of {@code zklock.zookeeper.connection-timeout}.
		 * @return the value
		 */
		public Duration getConnectionTimeout() {
			return this.connectionTimeout;
		}

		/**
		 * Sets {@code zklock.zookeeper.connection-timeout}.
		 * @param connectionTimeout the value
		 */
		public void setConnectionTimeout(Duration connectionTimeout) {
			this.connectionTimeout = connectionTimeout;
		}

		/**
		 * The value of {@code zklock.zookeeper.block-until-connected}.
		 * @return the value
		 */
		public Duration getBlockUntilConnected() {
			return this.blockUntilConnected;
		}

		/**
		 * Sets {@code zklock.zookeeper.block-until-connected}.
		 * @param blockUntilConnected the value
		 */
		public void setBlockUntilConnected(Duration blockUntilConnected) {
			this.blockUntilConnected = blockUntilConnected;
		}

		/**
		 * The value of {@code zklock.zookeeper.connection-state-error-policy}.
		 * @return the value
		 */
		public ConnectionStateErrorPolicy getConnectionStateErrorPolicy() {
			return this.connectionStateErrorPolicy;
		}

		/**
		 * Sets {@code zklock.zookeeper.connection-state-error-policy}.
		 * @param connectionStateErrorPolicy the value
		 */
		public void setConnectionStateErrorPolicy(ConnectionStateErrorPolicy connectionStateErrorPolicy) {
			this.connectionStateErrorPolicy = connectionStateErrorPolicy;
		}

		/**
		 * The {@code zklock.zookeeper.retry.*} settings.
		 * @return the settings
		 */
		public Retry getRetry() {
			return this.retry;
		}

		/**
		 * The {@code zklock.zookeeper.auth.*} settings.
		 * @return the settings
		 */
		public Auth getAuth() {
			return this.auth;
		}

		/**
		 * The {@code zklock.zookeeper.ssl.*} settings.
		 * @return the settings
		 */
		public Ssl getSsl() {
			return this.ssl;
		}

		/**
		 * The {@code zklock.zookeeper.embedded.*} settings.
		 * @return the settings
		 */
		public Embedded getEmbedded() {
			return this.embedded;
		}

		/**
		 * Retry policy of the Curator client: bounded exponential back-off, {@code zklock.zookeeper.retry.*}.
		 */
		public static class Retry {

			/**
			 * Sleep before the first retry; later sleeps grow exponentially.
			 */
			private Duration baseSleep = Duration.ofMillis(100);

			/**
			 * Maximum number of retries of one ZooKeeper operation.
			 */
			private int maxRetries = 3;

			/**
			 * Upper bound of the sleep between two retries.
			 */
			private Duration maxSleep = Duration.ofSeconds(5);

			/**
			 * The value of {@code zklock.zookeeper.retry.base-sleep}.
			 * @return the value
			 */
			public Duration getBaseSleep() {
				return this.baseSleep;
			}

			/**
			 * Sets {@code zklock.zookeeper.retry.base-sleep}.
			 * @param baseSleep the value
			 */
			public void setBaseSleep(Duration baseSleep) {
				this.baseSleep = baseSleep;
			}

			/**
			 * The value of {@code zklock.zookeeper.retry.max-retries}.
			 * @return the value
			 */
			public int getMaxRetries() {
				return this.maxRetries;
			}

			/**
			 * Sets {@code zklock.zookeeper.retry.max-retries}.
			 * @param maxRetries the value
			 */
			public void setMaxRetries(int maxRetries) {
				this.maxRetries = maxRetries;
			}

			/**
			 * The value of {@code zklock.zookeeper.retry.max-sleep}.
			 * @return the value
			 */
			public Duration getMaxSleep() {
				return this.maxSleep;
			}

			/**
			 * Sets {@code zklock.zookeeper.retry.max-sleep}.
			 * @param maxSleep the value
			 */
			public void setMaxSleep(Duration maxSleep) {
				this.maxSleep = maxSleep;
			}

		}

		/**
		 * In-process ZooKeeper server, for development and demos, {@code zklock.zookeeper.embedded.*}.
		 */
		public static class Embedded {

			/**
			 * Whether to start an in-process ZooKeeper server and connect to it instead of
			 * connect-string. Locks then exclude only clients of this one server.
			 */
			private boolean enabled;

			/**
			 * Client port of the in-process server; 0 picks a free port.
			 */
			private int port;

			/**
			 * The value of {@code zklock.zookeeper.embedded.enabled}.
			 * @return the value
			 */
			public boolean isEnabled() {
				return this.enabled;
			}

			/**
			 * Sets {@code zklock.zookeeper.embedded.enabled}.
			 * @param enabled the value
			 */
			public void setEnabled(boolean enabled) {
				this.enabled = enabled;
			}

			/**
			 * The value of {@code zklock.zookeeper.embedded.port}.
			 * @return the value
			 */
			public int getPort() {
				return this.port;
			}

			/**
			 * Sets {@code zklock.zookeeper.embedded.port}.
			 * @param port the value
			 */
			public void setPort(int port) {
				this.port = port;
			}

		}

		/**
		 * Authentication to ZooKeeper, {@code zklock.zookeeper.auth.*}. With credentials set, lock nodes and
		 * their parents are created readable and writable only by these credentials.
		 */
		public static class Auth {

			/**
			 * Authentication scheme, such as 'digest'.
			 */
			private String scheme = "digest";

			/**
			 * Credentials for the scheme, such as 'user:password' for digest. Never logged.
			 */
			private @Nullable String credentials;

			/**
			 * Whether start-up fails, instead of logging a warning, when the lock root lets
			 * anyone create or delete nodes under it.
			 */
			private boolean failOnOpenAcl;

			/**
			 * The value of {@code zklock.zookeeper.auth.scheme}.
			 * @return the value
			 */
			public String getScheme() {
				return this.scheme;
			}

			/**
			 * Sets {@code zklock.zookeeper.auth.scheme}.
			 * @param scheme the value
			 */
			public void setScheme(String scheme) {
				this.scheme = scheme;
			}

			/**
			 * The value of {@code zklock.zookeeper.auth.credentials}.
			 * @return the value, or {@code null} if not set
			 */
			public @Nullable String getCredentials() {
				return this.credentials;
			}

			/**
			 * Sets {@code zklock.zookeeper.auth.credentials}.
			 * @param credentials the value
			 */
			public void setCredentials(@Nullable String credentials) {
				this.credentials = credentials;
			}

			/**
			 * The value of {@code zklock.zookeeper.auth.fail-on-open-acl}.
			 * @return the value
			 */
			public boolean isFailOnOpenAcl() {
				return this.failOnOpenAcl;
			}

			/**
			 * Sets {@code zklock.zookeeper.auth.fail-on-open-acl}.
			 * @param failOnOpenAcl the value
			 */
			public void setFailOnOpenAcl(boolean failOnOpenAcl) {
				this.failOnOpenAcl = failOnOpenAcl;
			}

			/**
			 * Whether credentials are set.
			 * @return {@code true} if authentication is configured
			 */
			public boolean isConfigured() {
				return this.credentials != null && !this.credentials.isEmpty();
			}

		}

		/**
		 * TLS to ZooKeeper, {@code zklock.zookeeper.ssl.*}, configured on the client only (no JVM-wide system
		 * properties). The key and trust material comes either from an SSL bundle ({@code bundle}) or from
		 * store files ({@code key-store.*}, {@code trust-store.*}), never from both.
		 */
		public static class Ssl {

			/**
			 * Whether to connect to ZooKeeper's secure client port over TLS (Netty client socket). Naming a
			 * bundle turns TLS on too.
			 */
			private boolean enabled;

			/**
			 * Name of the SSL bundle (spring.ssl.bundle.jks.* or spring.ssl.bundle.pem.*) to take the key and trust
			 * material from, instead of key-store and trust-store.
			 */
			private @Nullable String bundle;

			/**
			 * Whether to check that the server's certificate matches the host name or address the client connects to.
			 */
			private boolean hostnameVerification = true;

			/**
			 * Whether hostname verification may fall back to a reverse DNS lookup of the server's address when the
			 * certificate does not name that address. Whoever controls those DNS records can then pass for the server
			 * with any trusted certificate (CVE-2026-24281).
			 */
			private boolean allowReverseDnsLookup;

			/**
			 * Whether the client reconnects at once, keeping its session, when the SSL bundle is reloaded;
			 * otherwise the new material serves from its next connection on.
			 */
			private boolean reconnectOnBundleUpdate = true;

			/**
			 * Key store file of the client.
			 */
			private final Store keyStore = new Store();

			/**
			 * Trust store file of the client.
			 */
			private final Store trustStore = new Store();

			/**
			 * The value of {@code zklock.zookeeper.ssl.enabled}.
			 * @return the value
			 */
			public boolean isEnabled() {
				return this.enabled;
			}

			/**
			 * Sets {@code zklock.zookeeper.ssl.enabled}.
			 * @param enabled the value
			 */
			public void setEnabled(boolean enabled) {
				this.enabled = enabled;
			}

			/**
			 * Whether TLS is on: {@code zklock.zookeeper.ssl.enabled}, or a bundle is named.
			 * @return whether the client connects over TLS
			 */
			public boolean isTls() {
				return this.enabled || hasBundle();
			}

			/**
			 * The value of {@code zklock.zookeeper.ssl.bundle}.
			 * @return the bundle's name, or {@code null}
			 */
			public @Nullable String getBundle() {
				return this.bundle;
			}

			/**
			 * Sets {@code zklock.zookeeper.ssl.bundle}.
			 * @param bundle the bundle's name
			 */
			public void setBundle(@Nullable String bundle) {
				this.bundle = bundle;
			}

			/**
			 * Whether {@code zklock.zookeeper.ssl.bundle} names a bundle.
			 * @return whether it is set and not blank
			 */
			public boolean hasBundle() {
				return this.bundle != null && !this.bundle.isBlank();
			}

			/**
			 * The value of {@code zklock.zookeeper.ssl.allow-reverse-dns-lookup}.
			 * @return the value
			 */
			public boolean isAllowReverseDnsLookup() {
				return this.allowReverseDnsLookup;
			}

			/**
			 * Sets {@code zklock.zookeeper.ssl.allow-reverse-dns-lookup}.
			 * @param allowReverseDnsLookup the value
			 */
			public void setAllowReverseDnsLookup(boolean allowReverseDnsLookup) {
				this.allowReverseDnsLookup = allowReverseDnsLookup;
			}

			/**
			 * The value of {@code zklock.zookeeper.ssl.reconnect-on-bundle-update}.
			 * @return the value
			 */
			public boolean isReconnectOnBundleUpdate() {
				return this.reconnectOnBundleUpdate;
			}

			/**
			 * Sets {@code zklock.zookeeper.ssl.reconnect-on-bundle-update}.
			 * @param reconnectOnBundleUpdate the value
			 */
			public void setReconnectOnBundleUpdate(boolean reconnectOnBundleUpdate) {
				this.reconnectOnBundleUpdate = reconnectOnBundleUpdate;
			}

			/**
			 * The value of {@code zklock.zookeeper.ssl.hostname-verification}.
			 * @return the value
			 */
			public boolean isHostnameVerification() {
				return this.hostnameVerification;
			}

			/**
			 * Sets {@code zklock.zookeeper.ssl.hostname-verification}.
			 * @param hostnameVerification the value
			 */
			public void setHostnameVerification(boolean hostnameVerification) {
				this.hostnameVerification = hostnameVerification;
			}

			/**
			 * The {@code zklock.zookeeper.ssl.key-store.*} settings.
			 * @return the settings
			 */
			public Store getKeyStore() {
				return this.keyStore;
			}

			/**
			 * The {@code zklock.zookeeper.ssl.trust-store.*} settings.
			 * @return the settings
			 */
			public Store getTrustStore() {
				return this.trustStore;
			}

			/**
			 * A key store or trust store file: {@code zklock.zookeeper.ssl.key-store.*} and
			 * {@code zklock.zookeeper.ssl.trust-store.*}.
			 */
			public static class Store {

				/**
				 * Path of the store file.
				 */
				private @Nullable String location;

				/**
				 * Password of the store. Never logged.
				 */
				private @Nullable String password;

				/**
				 * Type of the store: 'PKCS12', 'JKS' or 'PEM'; empty to detect it from the file name.
				 */
				private @Nullable String type;

				/**
				 * The value of {@code zklock.zookeeper.ssl.key-store.location} or
				 * {@code zklock.zookeeper.ssl.trust-store.location}.
				 * @return the value, or {@code null} if not set
				 */
				public @Nullable String getLocation() {
					return this.location;
				}

				/**
				 * Sets {@code zklock.zookeeper.ssl.key-store.location} or
				 * {@code zklock.zookeeper.ssl.trust-store.location}.
				 * @param location the value
				 */
				public void setLocation(@Nullable String location) {
					this.location = location;
				}

				/**
				 * The value of {@code zklock.zookeeper.ssl.key-store.password} or
				 * {@code zklock.zookeeper.ssl.trust-store.password}.
				 * @return the value, or {@code null} if not set
				 */
				public @Nullable String getPassword() {
					return this.password;
				}

				/**
				 * Sets {@code zklock.zookeeper.ssl.key-store.password} or
				 * {@code zklock.zookeeper.ssl.trust-store.password}.
				 * @param password the value
				 */
				public void setPassword(@Nullable String password) {
					this.password = password;
				}

				/**
				 * The value of {@code zklock.zookeeper.ssl.key-store.type} or
				 * {@code zklock.zookeeper.ssl.trust-store.type}.
				 * @return the value, or {@code null} if not set
				 */
				public @Nullable String getType() {
					return this.type;
				}

				/**
				 * Sets {@code zklock.zookeeper.ssl.key-store.type} or
				 * {@code zklock.zookeeper.ssl.trust-store.type}.
				 * @param type the value
				 */
				public void setType(@Nullable String type) {
					this.type = type;
				}

			}

		}

		/**
		 * Connection-state error policies of the Curator client.
		 */
		public enum ConnectionStateErrorPolicy {

			/** SUSPENDED puts held locks in doubt and LOST loses them (Curator's default). */
			STANDARD,

			/** Only LOST (an expired session) loses held locks; SUSPENDED is ridden out. */
			SESSION

		}

	}

	/**
	 * Local handoff (lock cohorting) of the lock engine, {@code zklock.local-handoff.*}: a held
	 * EXCLUSIVE or WRITE lock node is handed to this application's next waiter for the same lock path
	 * with one ZooKeeper write, up to a bound, instead of being deleted and queued for again.
	 */
	public static class LocalHandoff {

		/**
		 * Whether EXCLUSIVE and WRITE acquires of this application for one lock path share one lock
		 * node, handed from holder to the next local waiter with one ZooKeeper write.
		 */
		private boolean enabled = false;

		/**
		 * Most handoffs of one lock node before it is released and the local waiters queue again
		 * behind other processes' waiters.
		 */
		private int maxHandoffs = 32;

		/**
		 * Longest time from a lock node's grant during which it is handed on; then it is released
		 * and the local waiters queue again behind other processes' waiters.
		 */
		private Duration maxTime = Duration.ofMillis(50);

		/**
		 * The value of {@code zklock.local-handoff.enabled}.
		 * @return the value
		 */
		public boolean isEnabled() {
			return this.enabled;
		}

		/**
		 * Sets {@code zklock.local-handoff.enabled}.
		 * @param enabled the value
		 */
		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		/**
		 * The value of {@code zklock.local-handoff.max-handoffs}.
		 * @return the value
		 */
		public int getMaxHandoffs() {
			return this.maxHandoffs;
		}

		/**
		 * Sets {@code zklock.local-handoff.max-handoffs}.
		 * @param maxHandoffs the value
		 */
		public void setMaxHandoffs(int maxHandoffs) {
			this.maxHandoffs = maxHandoffs;
		}

		/**
		 * The value of {@code zklock.local-handoff.max-time}.
		 * @return the value
		 */
		public Duration getMaxTime() {
			return this.maxTime;
		}

		/**
		 * Sets {@code zklock.local-handoff.max-time}.
		 * @param maxTime the value
		 */
		public void setMaxTime(Duration maxTime) {
			this.maxTime = maxTime;
		}

		/**
		 * Sets the engine's local handoff.
		 * @param builder the engine's builder
		 * @param checks names a bad value as the user wrote it
		 * @throws org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException
		 * if {@code max-handoffs} is below 1 or {@code max-time} is not positive
		 */
		void applyTo(io.zklock.lock.LockEngine.Builder builder, ZkLockPropertyChecks checks) {
			if (this.maxHandoffs < 1) {
				throw checks.invalid("zklock.local-handoff.max-handoffs", this.maxHandoffs,
						"it must be at least 1; set zklock.local-handoff.enabled=false to hand no lock node on");
			}
			if (this.maxTime == null || this.maxTime.isZero() || this.maxTime.isNegative()) {
				throw checks.invalid("zklock.local-handoff.max-time", this.maxTime,
						"it must be positive; set a duration such as '50ms'");
			}
			if (this.enabled) {
				builder.localHandoff(this.maxHandoffs, this.maxTime);
			}
			else {
				builder.localHandoff(false);
			}
		}

	}

	/**
	 * Leak detection of the lock engine, {@code zklock.leak-detection.*}: a lock handle that becomes
	 * unreachable while its lock is still held is always reported (an ERROR naming the lock and where
	 * it was acquired); with a threshold, a hold that lasts longer is reported once (a WARN naming its
	 * holder).
	 */
	public static class LeakDetection {

		/**
		 * Whether each grant records where it was acquired (the first caller frame outside zklock,
		 * Spring and the JDK; a few microseconds per grant), so that leak reports and the time-out
		 * message of a waiter behind a hold of this application can name it.
		 */
		private boolean recordSites = true;

		/**
		 * How long a hold may last before it is reported once with its holder, whether or not its
		 * handle is still reachable. None unless set; a holdAtMost of the lock's own is reported
		 * instead.
		 */
		private @Nullable Duration threshold;

		/**
		 * The value of {@code zklock.leak-detection.record-sites}.
		 * @return the value
		 */
		public boolean isRecordSites() {
			return this.recordSites;
		}

		/**
		 * Sets {@code zklock.leak-detection.record-sites}.
		 * @param recordSites the value
		 */
		public void setRecordSites(boolean recordSites) {
			this.recordSites = recordSites;
		}

		/**
		 * The value of {@code zklock.leak-detection.threshold}.
		 * @return the value, or {@code null} for none
		 */
		public @Nullable Duration getThreshold() {
			return this.threshold;
		}

		/**
		 * Sets {@code zklock.leak-detection.threshold}.
		 * @param threshold the value, or {@code null} for none
		 */
		public void setThreshold(@Nullable Duration threshold) {
			this.threshold = threshold;
		}

		/**
		 * Sets the engine's leak detection.
		 * @param builder the engine's builder
		 * @param checks names a bad value as the user wrote it
		 * @throws org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException
		 * if {@code threshold} is zero or negative
		 */
		void applyTo(io.zklock.lock.LockEngine.Builder builder, ZkLockPropertyChecks checks) {
			if (this.threshold != null && (this.threshold.isZero() || this.threshold.isNegative())) {
				throw checks.invalid("zklock.leak-detection.threshold", this.threshold,
						"it must be positive; set a duration such as '10m', or leave it unset for no such report");
			}
			builder.leakDetection(this.recordSites, this.threshold);
		}

	}

	/**
	 * Leader election, {@code zklock.leadership.*}: one leader per role among the instances that are
	 * its candidates. A role is a lock path under the leadership root; the application joins every
	 * role it declares (with {@code @LeaderOnly}, {@code @LeaderScoped} or under {@code roles}) as a
	 * candidate when it starts, and leaves them, handing each role over, when it stops.
	 */
	public static class Leadership {

		/**
		 * Whether to configure leader election: a LeaderElection bean, the candidacies of the
		 * declared roles, @LeaderOnly methods and @LeaderScoped beans.
		 */
		private boolean enabled = true;

		/**
		 * ZooKeeper path, inside the client's namespace, under which roles are lock paths.
		 */
		private String rootPath = io.zklock.leadership.LeaderElection.DEFAULT_ROOT_PATH;

		/**
		 * Whether this instance is a candidate for the roles it declares, for the roles whose own
		 * candidate setting is not set.
		 */
		private boolean candidate = true;

		/**
		 * How long ending a term (a yield, a step-down, a shutdown) waits for the role's leader-scoped
		 * beans and onRevoked listeners to stop before the role's lock node is deleted; the longest a
		 * revocation waits for leader-scoped beans to stop.
		 */
		private Duration handoverTimeout = io.zklock.leadership.LeaderElection.DEFAULT_HANDOVER_TIMEOUT;

		/**
		 * Fraction of the session timeout that the local lease lasts after the send of its last
		 * answered renewal; greater than 0 and less than 1. Smaller revokes sooner when the ensemble
		 * stops answering.
		 */
		private double leaseFactor = io.zklock.leadership.LeaderElection.DEFAULT_LEASE_FACTOR;

		/**
		 * Whether this instance is a candidate only while its readiness state accepts traffic: it
		 * joins its roles once the application is ready, and steps down (reason UNHEALTHY) while
		 * readiness refuses traffic.
		 */
		private boolean yieldWhenNotReady;

		/**
		 * Roles by name, such as 'billing-close' (in brackets if the name has a '/', such as
		 * '[billing/close]'): whether this instance is their candidate and which lifecycle beans
		 * only their leader runs.
		 */
		private final Map<String, Role> roles = new LinkedHashMap<>();

		/**
		 * The value of {@code zklock.leadership.enabled}.
		 * @return the value
		 */
		public boolean isEnabled() {
			return this.enabled;
		}

		/**
		 * Sets {@code zklock.leadership.enabled}.
		 * @param enabled the value
		 */
		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		/**
		 * The value of {@code zklock.leadership.root-path}.
		 * @return the value
		 */
		public String getRootPath() {
			return this.rootPath;
		}

		/**
		 * Sets {@code zklock.leadership.root-path}.
		 * @param rootPath the value
		 */
		public void setRootPath(String rootPath) {
			this.rootPath = rootPath;
		}

		/**
		 * The value of {@code zklock.leadership.candidate}.
		 * @return the value
		 */
		public boolean isCandidate() {
			return this.candidate;
		}

		/**
		 * Sets {@code zklock.leadership.candidate}.
		 * @param candidate the value
		 */
		public void setCandidate(boolean candidate) {
			this.candidate = candidate;
		}

		/**
		 * The value of {@code zklock.leadership.handover-timeout}.
		 * @return the value
		 */
		public Duration getHandoverTimeout() {
			return this.handoverTimeout;
		}

		/**
		 * Sets {@code zklock.leadership.handover-timeout}.
		 * @param handoverTimeout the value
		 */
		public void setHandoverTimeout(Duration handoverTimeout) {
			this.handoverTimeout = handoverTimeout;
		}

		/**
		 * The value of {@code zklock.leadership.lease-factor}.
		 * @return the value
		 */
		public double getLeaseFactor() {
			return this.leaseFactor;
		}

		/**
		 * Sets {@code zklock.leadership.lease-factor}.
		 * @param leaseFactor the value
		 */
		public void setLeaseFactor(double leaseFactor) {
			this.leaseFactor = leaseFactor;
		}

		/**
		 * The value of {@code zklock.leadership.yield-when-not-ready}.
		 * @return the value
		 */
		public boolean isYieldWhenNotReady() {
			return this.yieldWhenNotReady;
		}

		/**
		 * Sets {@code zklock.leadership.yield-when-not-ready}.
		 * @param yieldWhenNotReady the value
		 */
		public void setYieldWhenNotReady(boolean yieldWhenNotReady) {
			this.yieldWhenNotReady = yieldWhenNotReady;
		}

		/**
		 * The {@code zklock.leadership.roles.*} settings, by role as written.
		 * @return the roles, in the order they were bound
		 */
		public Map<String, Role> getRoles() {
			return this.roles;
		}

		/**
		 * Whether this instance is a candidate for a role: the role's own setting, else
		 * {@code zklock.leadership.candidate}.
		 * @param role the role as written under {@code roles}, or declared by an annotation
		 * @return whether to join it
		 */
		public boolean isCandidate(String role) {
			Role settings = this.roles.get(role);
			Boolean own = (settings != null) ? settings.getCandidate() : null;
			return (own != null) ? own : this.candidate;
		}

		/**
		 * One role's settings, {@code zklock.leadership.roles.<role>.*}.
		 */
		public static class Role {

			/**
			 * Whether this instance is a candidate for the role; unset follows
			 * zklock.leadership.candidate.
			 */
			private @Nullable Boolean candidate;

			/**
			 * Comma-separated list of names of lifecycle beans that only the leader of the role
			 * runs, besides those annotated with @LeaderScoped.
			 */
			private List<String> leaderScopedBeans = new ArrayList<>();

			/**
			 * The value of {@code zklock.leadership.roles.<role>.candidate}.
			 * @return the value, or {@code null} if not set
			 */
			public @Nullable Boolean getCandidate() {
				return this.candidate;
			}

			/**
			 * Sets {@code zklock.leadership.roles.<role>.candidate}.
			 * @param candidate the value, or {@code null} to follow {@code zklock.leadership.candidate}
			 */
			public void setCandidate(@Nullable Boolean candidate) {
				this.candidate = candidate;
			}

			/**
			 * The value of {@code zklock.leadership.roles.<role>.leader-scoped-beans}.
			 * @return the bean names
			 */
			public List<String> getLeaderScopedBeans() {
				return this.leaderScopedBeans;
			}

			/**
			 * Sets {@code zklock.leadership.roles.<role>.leader-scoped-beans}.
			 * @param leaderScopedBeans the bean names
			 */
			public void setLeaderScopedBeans(List<String> leaderScopedBeans) {
				this.leaderScopedBeans = leaderScopedBeans;
			}

		}

	}

}
