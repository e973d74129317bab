package io.zklock.fault.leader;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import io.zklock.fault.ensemble.Ensemble;
import io.zklock.fault.ensemble.EnsembleProbe;
import io.zklock.fault.harness.FaultLab;
import io.zklock.fault.history.Event;
import io.zklock.fault.history.History;
import io.zklock.fault.register.FencedRegister;
import io.zklock.fixtures.BlackHoleProxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The fixture of one leadership fault test class: a {@link FaultLab} (the ensemble, the fenced
 * register, the history, the output directory) and the leader processes of one role
 * ({@code c1…cN}, each optionally behind its own black-hole proxy), reused across the class's
 * tests. Closing it closes the processes and proxies, then the lab (which writes the history to
 * {@code <fault output>/<name>/history.txt}).
 */
public final class LeaderLab implements AutoCloseable {

	/** Where zklock's candidate nodes live: the leaders' namespace plus the leadership root. */
	public static final String LEADERS_ROOT = "/zklock/leaders";

	private final FaultLab lab;

	private final String role;

	private final Map<String, LeaderProcess> leaders = new LinkedHashMap<>();

	private final Map<String, BlackHoleProxy> proxies = new LinkedHashMap<>();

	private final Map<String, Integer> restarts = new LinkedHashMap<>();

	/**
	 * @param name the test's name, for its output directory
	 * @param ensemble the ensemble, closed with the lab
	 * @param sessionTimeout the leaders' session timeout
	 * @param role the role every leader is a candidate of (and the register key)
	 */
	public LeaderLab(String name, Ensemble ensemble, Duration sessionTimeout, String role) {
		this.lab = new FaultLab(name, ensemble, sessionTimeout);
		this.role = role;
	}

	public String role() {
		return this.role;
	}

	public Duration sessionTimeout() {
		return this.lab.sessionTimeout();
	}

	public Ensemble ensemble() {
		return this.lab.ensemble();
	}

	public History history() {
		return this.lab.history();
	}

	public FencedRegister register() {
		return this.lab.register();
	}

	/**
	 * Starts leaders {@code c<first>…c<first+count-1>} in parallel; each opens its session and
	 * joins the role, {@code c<first>} first (it is the first leader).
	 * @param viaProxy whether each talks to the ensemble through its own black-hole proxy
	 * @param connectOptions words added to each {@code connect}
	 * @param joinOptions words added to each {@code join}
	 */
	public List<LeaderProcess> start(int first, int count, boolean viaProxy, String connectOptions, String joinOptions) {
		start("c" + first, viaProxy, connectOptions, joinOptions);
		List<CompletableFuture<LeaderProcess>> starting = new ArrayList<>();
		for (int i = first + 1; i < first + count; i++) {
			String id = "c" + i;
			starting.add(CompletableFuture.supplyAsync(() -> start(id, viaProxy, connectOptions, joinOptions)));
		}
		starting.forEach(CompletableFuture::join);
		return live();
	}

	/** Starts one leader process, connects it and joins the role. */
	public LeaderProcess start(String id, boolean viaProxy, String connectOptions, String joinOptions) {
		String base = id.split("#")[0];
		String connectString = this.lab.ensemble().connectString();
		if (viaProxy) {
			synchronized (this.proxies) {
				connectString = this.proxies
					.computeIfAbsent(base, (b) -> new BlackHoleProxy(b, this.lab.ensemble().clientPorts()))
					.connectString();
			}
		}
		LeaderProcess leader = LeaderProcess.start(id, this.role, this.lab.register().port(), connectString,
				this.lab.sessionTimeout(), connectOptions, joinOptions, this.lab.history(),
				this.lab.outputDir().resolve("logs"));
		synchronized (this.leaders) {
			this.leaders.put(id, leader);
		}
		return leader;
	}

	/**
	 * Starts a new process in place of a killed one: {@code c1} becomes {@code c1#2}, behind the
	 * same proxy if the killed one had one.
	 */
	public LeaderProcess replace(LeaderProcess dead, String connectOptions, String joinOptions) {
		String base = dead.id().split("#")[0];
		int generation;
		boolean viaProxy;
		synchronized (this.leaders) {
			generation = this.restarts.merge(base, 2, (old, two) -> old + 1);
			this.leaders.remove(dead.id());
		}
		synchronized (this.proxies) {
			viaProxy = this.proxies.containsKey(base);
		}
		return start(base + "#" + generation, viaProxy, connectOptions, joinOptions);
	}

	/** The running leader processes, in start order. */
	public List<LeaderProcess> live() {
		synchronized (this.leaders) {
			return this.leaders.values().stream().filter(LeaderProcess::isAlive).toList();
		}
	}

	/** The black-hole proxy in front of a leader process. */
	public BlackHoleProxy proxyOf(LeaderProcess leader) {
		synchronized (this.proxies) {
			BlackHoleProxy proxy = this.proxies.get(leader.id().split("#")[0]);
			if (proxy == null) {
				throw new IllegalArgumentException(leader + " does not go through a proxy");
			}
			return proxy;
		}
	}

	/**
	 * The machine's load average now, for figures and for the messages of timing assertions: a
	 * latency bound met on an idle machine can be missed on one shared with other builds.
	 * @return such as {@code "1.20 0.90 0.75 (1/5/15 min, 2 CPUs)"}, or {@code "unknown"}
	 */
	public static String loadAverage() {
		try {
			String[] fields = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim().split(" ");
			return fields[0] + " " + fields[1] + " " + fields[2] + " (1/5/15 min, "
					+ Runtime.getRuntime().availableProcessors() + " CPUs)";
		}
		catch (java.io.IOException | RuntimeException ex) {
			return "unknown";
		}
	}

	/** Records a fault the test injects; the event's stamp is the fault's time. */
	public Event nemesis(String kind, String target) {
		return this.lab.history().nemesis(kind, target);
	}

	/** The role's leadership as the history tells it now. */
	public LeaderTimeline timeline() {
		return LeaderTimeline.of(this.lab.history().snapshot(), this.role);
	}

	/**
	 * Waits until exactly one running, unfrozen process leads, and returns it.
	 * @throws org.awaitility.core.ConditionTimeoutException if that does not happen within {@code within}
	 */
	public LeaderProcess awaitSoleLeader(Duration within) {
		return await("exactly one leader of '" + this.role + "'").atMost(within)
			.pollInterval(Duration.ofMillis(50))
			.until(this::soleLeader, (leader) -> leader != null);
	}

	/**
	 * Asserts that one process leads, the same one in the same term, at every look during
	 * {@code period} (one look every 100 ms at every running, unfrozen process), and leads at the
	 * end: once faults stop, the role has one leader and keeps it. A look where no process leads
	 * because that leader is in jeopardy in the same term (its connection suspended, then resumed
	 * with the node confirmed as its own) counts as kept: on a loaded 2-core machine a client can
	 * miss its read timeout with no fault injected, and jeopardy is then the promised behaviour.
	 * Another process leading, or the leader's term ending, fails.
	 * @return the leader
	 */
	public LeaderProcess assertSoleLeaderFor(Duration period) {
		LeaderProcess first = soleLeader();
		assertThat(first).as("the one leader of '%s' among %s", this.role, leadersSeen()).isNotNull();
		long token = first.status().token();
		long end = System.nanoTime() + period.toNanos();
		await().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100)).atMost(period.plusSeconds(10))
			.until(() -> {
				List<String> leading = leadersSeen();
				if (leading.isEmpty()) {
					LeaderProcess.Status status = first.status();
					assertThat(status.state() + " " + status.token())
						.as("no process leads '%s': the state and token of its leader %s (term %d)", this.role,
								first.id(), token)
						.isEqualTo("JEOPARDY " + token);
					return false;
				}
				assertThat(leading).as("the processes leading '%s'", this.role).containsExactly(first.id());
				assertThat(first.status().token()).as("the term's token of %s", first.id()).isEqualTo(token);
				return System.nanoTime() - end >= 0;
			});
		return first;
	}

	/** The process that alone leads now, or {@code null} if none or several do. */
	public LeaderProcess soleLeader() {
		List<LeaderProcess> leading = live().stream().filter((l) -> !l.isPaused() && l.status().leads()).toList();
		return (leading.size() == 1) ? leading.get(0) : null;
	}

	private List<String> leadersSeen() {
		return live().stream().filter((l) -> !l.isPaused() && l.status().leads()).map(LeaderProcess::id).toList();
	}

	/**
	 * Closes every leader process (each leaves the role first), then lists what is left under the
	 * leadership root once the sessions are gone (waiting up to two session timeouts and 10 s for
	 * the sessions of killed processes and for the container reaper).
	 * @return the nodes left, as full paths (empty if none)
	 */
	public List<String> closeLeadersAndListNodesLeft() {
		List<LeaderProcess> all;
		synchronized (this.leaders) {
			all = new ArrayList<>(this.leaders.values());
		}
		all.stream().map((l) -> CompletableFuture.runAsync(l::close)).toList().forEach(CompletableFuture::join);
		return FaultLab.awaitEmpty(this::nodesUnderLeadersRoot,
				this.lab.sessionTimeout().multipliedBy(2).plusSeconds(10));
	}

	private List<String> nodesUnderLeadersRoot() throws Exception {
		return EnsembleProbe.nodesUnder(this.lab.ensemble(), LEADERS_ROOT);
	}

	@Override
	public void close() {
		try {
			List<LeaderProcess> all;
			synchronized (this.leaders) {
				all = new ArrayList<>(this.leaders.values());
			}
			all.stream().map((l) -> CompletableFuture.runAsync(l::close)).toList().forEach(CompletableFuture::join);
			synchronized (this.proxies) {
				this.proxies.values().forEach(BlackHoleProxy::close);
			}
		}
		finally {
			this.lab.close();
		}
	}

}
