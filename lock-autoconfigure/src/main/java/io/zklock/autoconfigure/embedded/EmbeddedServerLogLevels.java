package io.zklock.autoconfigure.embedded;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggerConfiguration;
import org.springframework.boot.logging.LoggingSystem;

/**
 * Quiets the in-process ZooKeeper server: at Spring Boot's default {@code INFO}, its server
 * loggers write most of an application's start-up lines (the server's environment, its
 * configuration, every internal component starting) and a "ZK server died" line on every
 * normal shutdown. While the server runs, these loggers are set to {@code WARN} (warnings and
 * errors still show), each only if the application did not configure its level itself:
 * <ul>
 * <li>{@code org.apache.zookeeper.server} and {@code org.apache.zookeeper.audit}, unless the
 * logger or one of its parent loggers other than the root has a configured level (for example
 * {@code logging.level.org.apache.zookeeper=INFO});</li>
 * <li>{@code org.apache.zookeeper.server.embedded.ZooKeeperServerEmbeddedImpl} (the "ZK server
 * died" line), and {@code org.apache.zookeeper.server.ServerCnxnFactory} at {@code ERROR} (a
 * warning that no connection limit is set, which is right for a development server), unless
 * that very logger has a configured level.</li>
 * </ul>
 * {@link #restore()} gives each logger it changed its former configured level back. Not
 * thread-safe: the server calls it once to lower and once to restore.
 */
class EmbeddedServerLogLevels {

	/** Changes no logger level. */
	static final EmbeddedServerLogLevels NONE = new EmbeddedServerLogLevels(null);

	/** Loggers quieted unless the application configured them or a parent other than root. */
	static final Map<String, LogLevel> SERVER_LOGGERS = Map.of("org.apache.zookeeper.server", LogLevel.WARN,
			"org.apache.zookeeper.audit", LogLevel.WARN);

	/** Loggers quieted unless the application configured that very logger. */
	static final Map<String, LogLevel> NOISY_LOGGERS = Map.of(
			"org.apache.zookeeper.server.embedded.ZooKeeperServerEmbeddedImpl", LogLevel.WARN,
			"org.apache.zookeeper.server.ServerCnxnFactory", LogLevel.ERROR);

	private final @Nullable LoggingSystem loggingSystem;

	/** logger name -> the configured level it had before, null for none */
	private final Map<String, LogLevel> changed = new LinkedHashMap<>();

	/**
	 * Creates the levels for a logging system.
	 * @param loggingSystem the application's logging system, or {@code null} to change nothing
	 */
	EmbeddedServerLogLevels(@Nullable LoggingSystem loggingSystem) {
		this.loggingSystem = loggingSystem;
	}

	/**
	 * Lowers the levels of the server loggers the application did not configure.
	 */
	void lower() {
		if (this.loggingSystem == null) {
			return;
		}
		// decide everything before changing anything: a level set here is no user's choice
		Map<String, LogLevel> toSet = new LinkedHashMap<>();
		SERVER_LOGGERS.forEach((name, level) -> {
			if (!configuredHereOrAbove(name)) {
				toSet.put(name, level);
			}
		});
		NOISY_LOGGERS.forEach((name, level) -> {
			if (configuredLevel(name) == null) {
				toSet.put(name, level);
			}
		});
		toSet.forEach((name, level) -> {
			this.changed.put(name, configuredLevel(name));
			this.loggingSystem.setLogLevel(name, level);
		});
	}

	/**
	 * Gives every logger that {@link #lower()} changed its former configured level back.
	 */
	void restore() {
		if (this.loggingSystem == null) {
			return;
		}
		List<String> names = List.copyOf(this.changed.keySet());
		for (int i = names.size() - 1; i >= 0; i--) {
			this.loggingSystem.setLogLevel(names.get(i), this.changed.get(names.get(i)));
		}
		this.changed.clear();
	}

	private boolean configuredHereOrAbove(String name) {
		for (String logger = name; !logger.isEmpty(); logger = parent(logger)) {
			if (configuredLevel(logger) != null) {
				return true;
			}
		}
		return false;
	}

	private @Nullable LogLevel configuredLevel(String name) {
		if (this.loggingSystem == null) {
			return null;
		}
		LoggerConfiguration configuration = this.loggingSystem.getLoggerConfiguration(name);
		return (configuration != null) ? configuration.getConfiguredLevel() : null;
	}

	private static String parent(String name) {
		int dot = name.lastIndexOf('.');
		return (dot > 0) ? name.substring(0, dot) : "";
	}

}
