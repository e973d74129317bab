package io.zklock.integration.leader;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.zklock.fixtures.BlackHoleProxy;
import io.zklock.fixtures.Sessions;
import org.apache.curator.framework.state.ConnectionStateErrorPolicy;
import org.apache.curator.framework.state.SessionConnectionStateErrorPolicy;
import org.apache.curator.framework.state.StandardConnectionStateErrorPolicy;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;

import static org.awaitility.Awaitility.await;

/**
 * The leadership scenarios of Spring Integration's leader initiator, on real ZooKeeper servers, run by a subclass per
 * registry: instances with Spring Integration's {@code LockRegistryLeaderInitiator} (default
 * heartbeat 500 ms) over that registry; the leader's session expired at the server, the leader
 * partitioned from the server for two session timeouts then healed, and the leader's JVM
 * frozen ({@code SIGSTOP}) for two session timeouts then resumed. Each returns its
 * {@link Figures}; the subclass asserts what its registry does.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
abstract class LeadershipScenarios {

	/** The instances' session timeout, T. */
	static final Duration SESSION_TIMEOUT = Duration.ofSeconds(2);

	/**
	 * What one run showed.
	 * @param revokedAfter the stale leader's revocation, from the fault (from SIGCONT for a
	 * pause); empty if it never came within the run
	 * @param newLeaderAfter the first grant to another instance, from the fault
	 * @param coexistence how long two or more instances believed they led, within the run (after
	 * SIGCONT for a pause)
	 * @param leadersAtEnd who believed it led when the run ended
	 * @param staleAccepted the stale leader's writes that the resource accepted after another
	 * leader had written (overwriting the new leader's data)
	 * @param staleRefused the stale leader's writes that the resource refused after another
	 * leader had written (an older fencing token)
	 */
	record Figures(String scenario, Optional<Duration> revokedAfter, Optional<Duration> newLeaderAfter,
			Duration coexistence, List<String> leadersAtEnd, int staleAccepted, int staleRefused, String timeline) {

		@Override
		public String toString() {
			return String.format("[figures] %s: revoked after %s, new leader after %s, two leaders for %d ms, leaders at end %s, "
					+ "stale writes after the new leader's: %d accepted, %d refused%n%s", this.scenario,
					this.revokedAfter.map((d) -> d.toMillis() + " ms").orElse("NEVER"),
					this.newLeaderAfter.map((d) -> d.toMillis() + " ms").orElse("NEVER"), this.coexistence.toMillis(),
					this.leadersAtEnd, this.staleAccepted, this.staleRefused, this.timeline);
		}

	}

	private TestingServer server;

	private final List<AutoCloseable> closeables = new ArrayList<>();

	private final LeadershipLog log = new LeadershipLog();

	private final FencedResource resource = new FencedResource();

	/** What the instances in this JVM report, straight into the log and the resource. */
	private final LeaderNode.Reporter reporter = new LeaderNode.Reporter() {

		@Override
		public void granted(String instance, long token) {
			LeadershipScenarios.this.log.granted(instance, token);
		}

		@Override
		public void revoked(String instance) {
			LeadershipScenarios.this.log.revoked(instance);
		}

		@Override
		public void write(String instance, long token) {
			LeadershipScenarios.this.resource.write(instance, token);
		}

	};

	private ConnectionStateErrorPolicy policy = new StandardConnectionStateErrorPolicy();

	private Duration heartbeat = Duration.ofMillis(500);

	abstract RegistryKind kind();

	@BeforeEach
	void startServer() throws Exception {
		this.server = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, 200, -1), true);
	}

	@AfterEach
	void stopAll() throws Exception {
		for (int i = this.closeables.size() - 1; i >= 0; i--) {
			this.closeables.get(i).close();
		}
		this.server.close();
	}

	/** The leader's session is expired at the server. */
	Figures sessionExpiry(int instances) throws Exception {
		LeaderNode a = node("a", this.server.getConnectString());
		awaitLeaders(List.of("a"));
		startFollowers(instances);
		long fault = System.nanoTime();
		Sessions.expire(a.client(), this.server.getConnectString());
		return observe("session expiry, " + instances + " instances", "a", fault, fault, SESSION_TIMEOUT.multipliedBy(3));
	}

	/** The leader cut off from the server for 2T, then healed. */
	Figures partition(int instances) throws Exception {
		BlackHoleProxy proxy = closing(new BlackHoleProxy("a", List.of(this.server.getPort())));
		node("a", proxy.connectString());
		awaitLeaders(List.of("a"));
		startFollowers(instances);
		long fault = System.nanoTime();
		proxy.blackHole();
		awaitUntil(fault + SESSION_TIMEOUT.multipliedBy(2).toNanos());
		proxy.heal();
		String policyName = (this.policy instanceof SessionConnectionStateErrorPolicy) ? ", session policy" : "";
		return observe("partition of 2T then heal, " + instances + " instances" + policyName, "a", fault, fault,
				SESSION_TIMEOUT.multipliedBy(4));
	}

	/**
	 * The leader cut off for 2T, then healed, every client under Curator's session policy: a
	 * suspended connection does not put a lock in doubt, only Curator's verdict that the session
	 * is lost (one session timeout after the suspension) does. Another instance may be granted
	 * from T on, the leader is revoked a heartbeat after 5T/3: the heartbeat is 250 ms here, below
	 * T/3 with room to spare.
	 */
	Figures partitionUnderSessionPolicy(int instances) throws Exception {
		this.policy = new SessionConnectionStateErrorPolicy();
		this.heartbeat = Duration.ofMillis(250);
		return partition(instances);
	}

	/** The leader in a JVM of its own, frozen for 2T, then resumed. */
	Figures pause(int instances) throws Exception {
		LeaderChild a = closing(new LeaderChild("a", this.server.getConnectString(), SESSION_TIMEOUT, kind(), this.log,
				this.resource, Path.of("target", "leader-logs", kind().name().toLowerCase() + "-pause-" + instances)));
		a.awaitStarted(Duration.ofSeconds(60));
		awaitLeaders(List.of("a"));
		startFollowers(instances);
		long fault = System.nanoTime();
		a.pause();
		awaitUntil(fault + SESSION_TIMEOUT.multipliedBy(2).toNanos());
		long resumed = System.nanoTime();
		a.resume();
		return observe("SIGSTOP of 2T then SIGCONT, " + instances + " instances", "a", fault, resumed,
				SESSION_TIMEOUT.multipliedBy(4));
	}

	/** Instances b (and c), in this JVM, straight to the server. */
	private void startFollowers(int instances) {
		for (int i = 1; i < instances; i++) {
			node(String.valueOf((char) ('a' + i)), this.server.getConnectString());
		}
	}

	/** Watches the whole {@code window} after the fault, then reads the figures. */
	private Figures observe(String scenario, String stale, long fault, long from, Duration window) {
		awaitUntil(fault + window.toNanos());
		long now = System.nanoTime();
		Optional<Duration> revoked = this.log.revocationSince(stale, fault)
			.map((event) -> Duration.ofNanos(event.at() - from));
		Optional<Duration> granted = this.log.grantToOtherSince(stale, fault)
			.map((event) -> Duration.ofNanos(event.at() - fault));
		int[] staleWrites = this.resource.staleWritesAfterOthers(stale, fault);
		Figures figures = new Figures(scenario + " (" + kind() + ")", revoked, granted, this.log.coexistence(from, now),
				this.log.leaders(), staleWrites[0], staleWrites[1], this.log.describe(fault));
		System.out.println(figures);
		return figures;
	}

	private LeaderNode node(String name, String connectString) {
		return closing(new LeaderNode(name, connectString, SESSION_TIMEOUT, kind(), this.policy, this.heartbeat,
				this.reporter));
	}

	private <T extends AutoCloseable> T closing(T closeable) {
		this.closeables.add(closeable);
		return closeable;
	}

	private void awaitLeaders(List<String> leaders) {
		await().atMost(Duration.ofSeconds(30)).until(() -> this.log.leaders().equals(leaders));
	}

	/** Lets the instances run until {@code deadline} ({@link System#nanoTime()}). */
	private static void awaitUntil(long deadline) {
		Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
		await().pollDelay(Duration.ZERO)
			.pollInterval(Duration.ofMillis(20))
			.atMost(left.plusSeconds(1))
			.until(() -> System.nanoTime() >= deadline);
	}

}
