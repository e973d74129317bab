package io.zklock.autoconfigure;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggerConfiguration;
import org.springframework.boot.logging.LoggingSystem;

/**
 * Silences the ZooKeeper client's and Curator's connection loggers while zklock's client
 * connects at start-up. Against an unreachable ensemble they log a WARN with a stack trace
 * for every attempt (about one a second) and Curator an ERROR with a stack trace for every
 * connection time-out, dozens before start-up gives up; zklock's failure analysis then says
 * what happened, naming each server's state ({@link EnsembleProbe}). The levels are restored
 * as soon as the client is connected or closed. A logger whose effective level is
 * {@code DEBUG} or {@code TRACE} is left alone: someone asked for those details. The loggers
 * are per class, not per client, so another Curator client of the application that logs in
 * that window is silenced too. Thread-safe: clients connecting at once share one silence,
 * restored by the last.
 */
final class ClientConnectLogs {

	/** The loggers that write while a client connects or fails to. */
	static final List<String> LOGGERS = List.of("org.apache.zookeeper.ZooKeeper", "org.apache.zookeeper.ClientCnxn",
			"org.apache.zookeeper.ClientCnxnSocket", "org.apache.zookeeper.ClientCnxnSocketNIO",
			"org.apache.zookeeper.ClientCnxnSocketNetty", "org.apache.zookeeper.client.StaticHostProvider",
			"org.apache.zookeeper.client.ZooKeeperSaslClient", "org.apache.zookeeper.common.X509Util",
			"org.apache.curator.ConnectionState", "org.apache.curator.CuratorZookeeperClient",
			"org.apache.curator.framework.imps.CuratorFrameworkImpl",
			"org.apache.curator.framework.state.ConnectionStateManager");

	private static final Object monitor = new Object();

	private static int users;

	private static @Nullable LoggingSystem quieted;

	/** logger name -> the level it had configured before, null for none */
	private static final Map<String, @Nullable LogLevel> saved = new LinkedHashMap<>();

	private ClientConnectLogs() {
	}

	/**
	 * Silences the loggers until the returned callback runs.
	 * @param loggingSystem the application's logging system, or {@code null} to change nothing
	 * @return restores the levels; runs once, later calls do nothing
	 */
	static Runnable silence(@Nullable LoggingSystem loggingSystem) {
		if (loggingSystem == null || !loggingSystem.getSupportedLogLevels().contains(LogLevel.OFF)) {
			return () -> {
			};
		}
		synchronized (monitor) {
			if (users++ == 0) {
				quieted = loggingSystem;
				for (String name : LOGGERS) {
					LoggerConfiguration configuration = loggingSystem.getLoggerConfiguration(name);
					LogLevel effective = (configuration != null) ? configuration.getEffectiveLevel() : null;
					if (effective == LogLevel.DEBUG || effective == LogLevel.TRACE) {
						continue;
					}
					saved.put(name, (configuration != null) ? configuration.getConfiguredLevel() : null);
					loggingSystem.setLogLevel(name, LogLevel.OFF);
				}
			}
		}
		AtomicBoolean restored = new AtomicBoolean();
		return () -> {
			if (restored.compareAndSet(false, true)) {
				restore();
			}
		};
	}

	private static void restore() {
		synchronized (monitor) {
			if (--users == 0 && quieted != null) {
				LoggingSystem loggingSystem = quieted;
				saved.forEach(loggingSystem::setLogLevel);
				saved.clear();
				quieted = null;
			}
		}
	}

}
