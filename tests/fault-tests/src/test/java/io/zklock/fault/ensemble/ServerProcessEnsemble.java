package io.zklock.fault.ensemble;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.zklock.fault.harness.ChildJvm;
import io.zklock.fixtures.FourLetterWords;
import io.zklock.fixtures.Signals;

import static org.awaitility.Awaitility.await;

/**
 * A ZooKeeper ensemble of real server processes: one {@code QuorumPeerMain} JVM per member,
 * each with its own {@code zoo.cfg} and data directory on loopback, tick 200 ms. Members can
 * be crashed ({@code SIGKILL}), restarted with their data, and paused ({@code SIGSTOP}), the
 * leader included.
 */
public final class ServerProcessEnsemble implements Ensemble {

	private static final String MAIN_CLASS = "org.apache.zookeeper.server.quorum.QuorumPeerMain";

	private final ServerDistribution distribution;

	private final Path dir;

	private final List<Integer> clientPorts = new ArrayList<>();

	private final Process[] processes;

	private final boolean[] paused;

	private final String version;

	/**
	 * Writes the configuration, starts every member and waits until the ensemble has a leader.
	 * @param distribution where the servers' ZooKeeper comes from
	 * @param size the number of members
	 * @param dir a directory for configuration, data and logs (emptied first)
	 */
	public ServerProcessEnsemble(ServerDistribution distribution, int size, Path dir) throws Exception {
		this.distribution = distribution;
		this.dir = dir;
		this.processes = new Process[size];
		this.paused = new boolean[size];
		deleteRecursively(dir);
		int[] ports = ListenPorts.below(3 * size);
		StringBuilder servers = new StringBuilder();
		for (int i = 0; i < size; i++) {
			this.clientPorts.add(ports[3 * i]);
			servers.append("server.").append(i + 1).append("=127.0.0.1:").append(ports[3 * i + 1]).append(':')
				.append(ports[3 * i + 2]).append('\n');
		}
		for (int i = 0; i < size; i++) {
			Path member = memberDir(i);
			Files.createDirectories(member.resolve("data"));
			Files.writeString(member.resolve("data").resolve("myid"), Integer.toString(i + 1));
			Files.writeString(member.resolve("zoo.cfg"), """
					tickTime=200
					initLimit=10
					syncLimit=5
					dataDir=%s
					clientPort=%d
					clientPortAddress=127.0.0.1
					maxSessionTimeout=60000
					admin.enableServer=false
					4lw.commands.whitelist=*
					reconfigEnabled=false
					standaloneEnabled=false
					""".formatted(member.resolve("data"), this.clientPorts.get(i)) + servers);
		}
		try {
			for (int i = 0; i < size; i++) {
				start(i);
			}
			EnsembleProbe.awaitLeader(this);
		}
		catch (Exception | AssertionError ex) {
			close();
			throw ex;
		}
		this.version = await("the version of " + distribution.name()).atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> this.clientPorts.stream()
				.map(FourLetterWords::version)
				.flatMap(java.util.Optional::stream)
				.map((v) -> v.split("[-,]")[0])
				.findFirst()
				.orElse(null), (v) -> v != null);
	}

	@Override
	public String description() {
		return this.distribution.name() + " " + this.version + ", " + size() + " QuorumPeerMain processes";
	}

	/** The server version the members report, such as {@code 3.8.0}. */
	public String version() {
		return this.version;
	}

	@Override
	public List<Integer> clientPorts() {
		return this.clientPorts;
	}

	@Override
	public synchronized void kill(int member) throws InterruptedException {
		Process process = this.processes[member];
		Signals.kill(process.pid());
		if (!process.waitFor(20, TimeUnit.SECONDS)) {
			throw new IllegalStateException("Server " + (member + 1) + " still runs 20 s after SIGKILL");
		}
		this.paused[member] = false;
	}

	@Override
	public synchronized void restart(int member) {
		if (isRunning(member)) {
			throw new IllegalStateException("Server " + (member + 1) + " is running; kill it first");
		}
		start(member);
	}

	@Override
	public synchronized boolean isRunning(int member) {
		return this.processes[member] != null && this.processes[member].isAlive();
	}

	@Override
	public boolean canPause() {
		return true;
	}

	@Override
	public synchronized void pause(int member) {
		Signals.stop(this.processes[member].pid());
		this.paused[member] = true;
	}

	@Override
	public synchronized void resume(int member) {
		Signals.resume(this.processes[member].pid());
		this.paused[member] = false;
	}

	@Override
	public synchronized boolean isPaused(int member) {
		return this.paused[member];
	}

	private void start(int member) {
		List<String> flags = new ArrayList<>(List.of("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
				"-XX:-UsePerfData", "-Djava.net.preferIPv4Stack=true", "-Dznode.container.checkIntervalMs=100",
				"-Dzookeeper.admin.enableServer=false"));
		flags.addAll(this.distribution.jvmFlags());
		this.processes[member] = ChildJvm.start(this.distribution.classpath(), flags, MAIN_CLASS,
				List.of(memberDir(member).resolve("zoo.cfg").toString()), memberDir(member).resolve("server.log"), true);
	}

	private Path memberDir(int member) {
		return this.dir.resolve("server-" + (member + 1));
	}

	@Override
	public synchronized void close() {
		for (Process process : this.processes) {
			if (process != null && process.isAlive()) {
				process.destroyForcibly();
				try {
					process.waitFor(20, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		}
		Arrays.fill(this.paused, false);
	}

	private static void deleteRecursively(Path dir) {
		if (!Files.exists(dir)) {
			return;
		}
		try (Stream<Path> paths = Files.walk(dir)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
