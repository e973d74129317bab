package io.zklock.sample.demo;

import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The three instances of the demo: with locking, the first hosts the embedded ZooKeeper
 * server and the other two connect to it; all share one inventory directory. Closing (or a
 * JVM shutdown, such as Ctrl-C) stops every instance it started.
 */
final class AppCluster implements AutoCloseable {

	private static final int INSTANCES = 3;

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(90);

	private static final Duration POLL_INTERVAL = Duration.ofMillis(200);

	private static final List<String> JVM_OPTIONS = List.of("-Xms32m", "-Xmx192m", "-Xss512k", "-XX:+UseSerialGC",
			"-XX:TieredStopAtLevel=1", "-Djava.net.preferIPv4Stack=true");

	private final List<AppInstance> instances = new CopyOnWriteArrayList<>();

	private final List<InventoryClient> clients = new ArrayList<>();

	private final Thread shutdownHook = new Thread(this::stopOnShutdown, "zklock-demo-shutdown");

	private final String zooKeeperAddress;

	private AppCluster(String zooKeeperAddress) {
		this.zooKeeperAddress = zooKeeperAddress;
		Runtime.getRuntime().addShutdownHook(this.shutdownHook);
	}

	/**
	 * Starts the instances and waits until all answer HTTP.
	 * @param options the demo options (locking, jar)
	 * @param inventoryDirectory the shared stock directory
	 * @param logDirectory where the instance logs go
	 * @param http the HTTP client for the readiness checks and the clients
	 * @return the running cluster; close it
	 * @throws IllegalStateException if an instance exits or is not up within 90 seconds (the
	 * instances started so far are stopped)
	 */
	static AppCluster start(DemoOptions options, Path inventoryDirectory, Path logDirectory, HttpClient http) {
		if (!Files.isRegularFile(options.jar())) {
			throw new IllegalStateException("Application jar " + options.jar().toAbsolutePath()
					+ " not found; build it with './mvnw -B -q -DskipTests package -pl sample-app -am' from the repository root");
		}
		List<Integer> ports = FreePorts.pick(INSTANCES + 1);
		int zooKeeperPort = ports.get(0);
		AppCluster cluster = new AppCluster(options.locking() ? "127.0.0.1:" + zooKeeperPort : null);
		try {
			if (options.locking()) {
				AppInstance host = cluster.launch(1, ports.get(1), options, inventoryDirectory, logDirectory,
						"--zklock.zookeeper.embedded.enabled=true", "--zklock.zookeeper.embedded.port=" + zooKeeperPort);
				cluster.awaitUp(List.of(host), http);
				List<AppInstance> others = new ArrayList<>();
				for (int i = 2; i <= INSTANCES; i++) {
					others.add(cluster.launch(i, ports.get(i), options, inventoryDirectory, logDirectory,
							"--zklock.zookeeper.embedded.enabled=false",
							"--zklock.zookeeper.connect-string=" + cluster.zooKeeperAddress));
				}
				cluster.awaitUp(others, http);
			}
			else {
				List<AppInstance> all = new ArrayList<>();
				for (int i = 1; i <= INSTANCES; i++) {
					all.add(cluster.launch(i, ports.get(i), options, inventoryDirectory, logDirectory,
							"--zklock.enabled=false", "--zklock.zookeeper.embedded.enabled=false"));
				}
				cluster.awaitUp(all, http);
			}
			for (AppInstance instance : cluster.instances) {
				cluster.clients.add(new InventoryClient(http, instance.baseUri(), instance.name()));
			}
			return cluster;
		}
		catch (RuntimeException ex) {
			cluster.close();
			throw ex;
		}
	}

	/**
	 * One client per instance, in instance order.
	 * @return the clients
	 */
	List<InventoryClient> clients() {
		return List.copyOf(this.clients);
	}

	/**
	 * The instances, in start order.
	 * @return the instances
	 */
	List<AppInstance> instances() {
		return List.copyOf(this.instances);
	}

	/**
	 * The address of the embedded ZooKeeper server.
	 * @return {@code 127.0.0.1:<port>}, or {@code null} when locking is off
	 */
	String zooKeeperAddress() {
		return this.zooKeeperAddress;
	}

	/**
	 * Stops every instance, the ZooKeeper host last, and removes the shutdown hook.
	 */
	@Override
	public void close() {
		stopAll();
		try {
			Runtime.getRuntime().removeShutdownHook(this.shutdownHook);
		}
		catch (IllegalStateException ex) {
			// the JVM is shutting down and runs the hook itself
		}
	}

	private AppInstance launch(int number, int httpPort, DemoOptions options, Path inventoryDirectory,
			Path logDirectory, String... zkLockArguments) {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(JVM_OPTIONS);
		command.add("-jar");
		command.add(options.jar().toAbsolutePath().toString());
		command.add("--server.address=127.0.0.1");
		command.add("--server.port=" + httpPort);
		command.add("--sample.inventory.dir=" + inventoryDirectory);
		command.add("--spring.main.banner-mode=off");
		command.addAll(List.of(zkLockArguments));
		AppInstance instance = AppInstance.start("instance-" + number, httpPort, command, logDirectory);
		this.instances.add(instance);
		return instance;
	}

	private void awaitUp(List<AppInstance> starting, HttpClient http) {
		List<AppInstance> pending = new ArrayList<>(starting);
		long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
		while (!pending.isEmpty()) {
			for (AppInstance instance : List.copyOf(pending)) {
				instance.checkAlive();
				if (new InventoryClient(http, instance.baseUri(), instance.name()).isUp()) {
					pending.remove(instance);
				}
			}
			if (pending.isEmpty()) {
				return;
			}
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException(pending.get(0).name() + " is not up after " + STARTUP_TIMEOUT.toSeconds()
						+ " s (log " + pending.get(0).logFile() + "); its last lines:\n" + pending.get(0).logTail(30));
			}
			pause();
		}
	}

	private void stopOnShutdown() {
		if (this.instances.stream().anyMatch(AppInstance::isAlive)) {
			System.err.println("Interrupted: stopping the instances...");
			stopAll();
		}
	}

	private void stopAll() {
		List<AppInstance> reversed = new ArrayList<>(this.instances);
		Collections.reverse(reversed);
		for (AppInstance instance : reversed) {
			instance.stop();
		}
	}

	private static void pause() {
		try {
			Thread.sleep(POLL_INTERVAL.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for the instances to start", ex);
		}
	}

}
