package io.zklock.test;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggerConfiguration;
import org.springframework.boot.logging.LoggingSystem;

/**
 * Keeps the test server's own logs to warnings: at INFO, ZooKeeper's server writes about a
 * hundred lines when it starts (its environment, configuration and every component) and a
 * dozen more, ending with "ZK server died", when it stops, for every test class. Only the
 * server's loggers are lowered ({@code org.apache.zookeeper.server} and {@code .audit}, and
 * Curator's {@code org.apache.curator.test}), and only those whose level nobody configured:
 * a {@code logging.level.org.apache.zookeeper=INFO} or a {@code <logger>} of the test's
 * logging configuration on them or a parent (other than the root) wins. Spring Boot sets its
 * logging up anew for each test context, so {@link #quiet()} is called when the server starts,
 * when a test context is customized for it, and before it stops.
 */
final class TestServerLogLevels {

	/** Loggers lowered unless configured here or on a parent other than the root. */
	private static final Map<String, LogLevel> SERVER_LOGGERS = Map.of("org.apache.zookeeper.server", LogLevel.WARN,
			"org.apache.zookeeper.audit", LogLevel.WARN, "org.apache.curator.test", LogLevel.WARN);

	/** A warning that no connection limit is set, which is right for a test server. */
	private static final String CONNECTION_LIMIT_LOGGER = "org.apache.zookeeper.server.ServerCnxnFactory";

	private TestServerLogLevels() {
	}

	/** Lowers the levels of the server loggers that nobody configured; changes nothing else. */
	static void quiet() {
		LoggingSystem logging = LoggingSystem.get(TestServerLogLevels.class.getClassLoader());
		for (String name : List.of("org.apache.zookeeper.server", "org.apache.zookeeper.audit",
				"org.apache.curator.test", CONNECTION_LIMIT_LOGGER)) {
			if (!configuredByOthers(logging, name)) {
				logging.setLogLevel(name, ours(name));
			}
		}
	}

	/** Whether the logger or a parent other than the root has a level this class did not set. */
	private static boolean configuredByOthers(LoggingSystem logging, String name) {
		for (String logger = name; !logger.isEmpty(); logger = parent(logger)) {
			LogLevel level = configuredLevel(logging, logger);
			if (level != null && level != ours(logger)) {
				return true;
			}
		}
		return false;
	}

	private static @Nullable LogLevel ours(String name) {
		return name.equals(CONNECTION_LIMIT_LOGGER) ? LogLevel.ERROR : SERVER_LOGGERS.get(name);
	}

	private static @Nullable LogLevel configuredLevel(LoggingSystem logging, String name) {
		LoggerConfiguration configuration = logging.getLoggerConfiguration(name);
		return (configuration != null) ? configuration.getConfiguredLevel() : null;
	}

	private static String parent(String name) {
		int dot = name.lastIndexOf('.');
		return (dot > 0) ? name.substring(0, dot) : "";
	}

}
