package io.zklock.fault.harness;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import io.zklock.fault.contender.CallShape;
import io.zklock.fault.ensemble.Ensemble;
import io.zklock.fault.ensemble.EnsembleProbe;
import io.zklock.fault.history.History;
import io.zklock.fault.register.FencedRegister;
import io.zklock.fixtures.BlackHoleProxy;
import io.zklock.lock.internal.LocalHandoff;

import static org.awaitility.Awaitility.await;

/**
 * The fixture of one fault test class: an ensemble, the fenced register, the history, and the
 * contender processes (each optionally behind its own black-hole proxy), reused across rounds.
 * Closing it closes the contenders and writes the history to
 * {@code <fault output>/<name>/history.txt}.
 */
public final class FaultLab implements AutoCloseable {

	/** The suite's local handoff: short bounds, so that chains end often. */
	public static final LocalHandoff SHORT_CHAINS = new LocalHandoff(true, 8, Duration.ofMillis(100));

	private final String name;

	private final Ensemble ensemble;

	private final Duration sessionTimeout;

	private final History history = new History();

	private final FencedRegister register = new FencedRegister(this.history);

	private final Map<String, ContenderProcess> contenders = new LinkedHashMap<>();

	private final Map<String, BlackHoleProxy> proxies = new ConcurrentHashMap<>();

	private final Map<String, Integer> restarts = new LinkedHashMap<>();

	private final LocalHandoff localHandoff;

	/**
	 * @param name the test's name, used for its output directory
	 * @param ensemble the ensemble, closed with the lab
	 * @param sessionTimeout the contenders' session timeout
	 */
	public FaultLab(String name, Ensemble ensemble, Duration sessionTimeout) {
		this(name, ensemble, sessionTimeout, false);
	}

	/**
	 * @param name the test's name, used for its output directory
	 * @param ensemble the ensemble, closed with the lab
	 * @param sessionTimeout the contenders' session timeout
	 * @param localHandoff whether the contenders' engines hand held lock nodes to their own
	 * waiters ({@code -Dzklock.fault.local-handoff=true} in each contender JVM), with the
	 * suite's short bounds ({@link #SHORT_CHAINS})
	 */
	public FaultLab(String name, Ensemble ensemble, Duration sessionTimeout, boolean localHandoff) {
		this(name, ensemble, sessionTimeout, localHandoff ? SHORT_CHAINS : LocalHandoff.off());
	}

	/**
	 * @param name the test's name, used for its output directory
	 * @param ensemble the ensemble, closed with the lab
	 * @param sessionTimeout the contenders' session timeout
	 * @param localHandoff whether, and how far, the contenders' engines hand held lock nodes
	 * to their own waiters
	 */
	public FaultLab(String name, Ensemble ensemble, Duration sessionTimeout, LocalHandoff localHandoff) {
		this.name = localHandoff.enabled() ? name + "-local-handoff" : name;
		this.ensemble = ensemble;
		this.sessionTimeout = sessionTimeout;
		this.localHandoff = localHandoff;
	}

	/** A figures row's name, marked when the contenders hand lock nodes on locally. */
	public String label(String test) {
		return this.localHandoff.enabled() ? test + ", local handoff" : test;
	}

	/** Where fault tests write histories, logs and the figures table. */
	public static Path outputRoot() {
		return Path.of(System.getProperty("zklock.fault.output", "target/fault-output"));
	}

	public Path outputDir() {
		return outputRoot().resolve(this.name);
	}

	public History history() {
		return this.history;
	}

	public FencedRegister register() {
		return this.register;
	}

	public Ensemble ensemble() {
		return this.ensemble;
	}

	public Duration sessionTimeout() {
		return this.sessionTimeout;
	}

	/** How long a contender waits for a lock before it records a timeout and queues again. */
	public Duration lockWait() {
		return this.sessionTimeout.multipliedBy(4);
	}

	/**
	 * Starts contenders {@code c1…cN} in parallel and opens their sessions.
	 * @param viaProxy whether each talks to the ensemble through its own black-hole proxy
	 */
	public List<ContenderProcess> startContenders(int count, boolean viaProxy) {
		List<CompletableFuture<ContenderProcess>> starting = new ArrayList<>();
		for (int i = this.contenders.size() + 1; i <= count; i++) {
			String id = "c" + i;
			starting.add(CompletableFuture.supplyAsync(() -> startContender(id, viaProxy)));
		}
		starting.forEach(CompletableFuture::join);
		return live();
	}

	private ContenderProcess startContender(String id, boolean viaProxy) {
		String base = id.split("#")[0];
		String connectString = this.ensemble.connectString();
		if (viaProxy || this.proxies.containsKey(base)) {
			connectString = this.proxies
				.computeIfAbsent(base, (b) -> new BlackHoleProxy(b, this.ensemble.clientPorts()))
				.connectString();
		}
		ContenderProcess contender = ContenderProcess.start(id, this.register.port(), this.history,
				outputDir().resolve("logs"), this.localHandoff);
		contender.connect(connectString, this.sessionTimeout);
		synchronized (this.contenders) {
			this.contenders.put(id, contender);
		}
		return contender;
	}

	/** Starts a new process in place of a killed contender: {@code c1} becomes {@code c1#2}. */
	public ContenderProcess replace(ContenderProcess dead) {
		String base = dead.id().split("#")[0];
		int generation = this.restarts.merge(base, 2, (old, two) -> old + 1);
		synchronized (this.contenders) {
			this.contenders.remove(dead.id());
		}
		return startContender(base + "#" + generation, false);
	}

	/** The contender with this id. */
	public ContenderProcess contender(String id) {
		synchronized (this.contenders) {
			ContenderProcess contender = this.contenders.get(id);
			if (contender == null) {
				throw new IllegalArgumentException("No contender '" + id + "' in " + this.contenders.keySet());
			}
			return contender;
		}
	}

	/** The running contenders, in start order. */
	public List<ContenderProcess> live() {
		synchronized (this.contenders) {
			return this.contenders.values().stream().filter(ContenderProcess::isAlive).toList();
		}
	}

	public List<String> liveIds() {
		return live().stream().map(ContenderProcess::id).toList();
	}

	/** The black-hole proxy in front of a contender. */
	public BlackHoleProxy proxyOf(ContenderProcess contender) {
		BlackHoleProxy proxy = this.proxies.get(contender.id().split("#")[0]);
		if (proxy == null) {
			throw new IllegalArgumentException(contender + " does not go through a proxy");
		}
		return proxy;
	}

	/**
	 * Starts guarded rounds on every live contender, each on one thread ({@link CallShape#THREAD}).
	 * @param rounds rounds per contender, or -1 until {@link #stopAll()}
	 */
	public void runAll(String lockPath, int threads, int rounds, int sectionMinMs, int sectionMaxMs,
			int reentrantEvery) {
		runAll(lockPath, threads, rounds, sectionMinMs, sectionMaxMs, reentrantEvery, CallShape.THREAD);
	}

	/**
	 * Starts guarded rounds of the given shape on every live contender.
	 * @param rounds rounds per contender, or -1 until {@link #stopAll()}
	 * @param reentrantEvery re-enter every n-th round; 0 for the call-owned (asynchronous) shapes
	 */
	public void runAll(String lockPath, int threads, int rounds, int sectionMinMs, int sectionMaxMs,
			int reentrantEvery, CallShape shape) {
		for (ContenderProcess contender : live()) {
			run(contender, lockPath, threads, rounds, sectionMinMs, sectionMaxMs, reentrantEvery, shape);
		}
	}

	/** Starts guarded rounds on one contender, each on one thread ({@link CallShape#THREAD}). */
	public void run(ContenderProcess contender, String lockPath, int threads, int rounds, int sectionMinMs,
			int sectionMaxMs, int reentrantEvery) {
		run(contender, lockPath, threads, rounds, sectionMinMs, sectionMaxMs, reentrantEvery, CallShape.THREAD);
	}

	/** Starts guarded rounds of the given shape on one contender. */
	public void run(ContenderProcess contender, String lockPath, int threads, int rounds, int sectionMinMs,
			int sectionMaxMs, int reentrantEvery, CallShape shape) {
		run(contender, List.of(lockPath), threads, rounds, sectionMinMs, sectionMaxMs, reentrantEvery, 0, shape);
	}

	/**
	 * Starts guarded rounds of the given shape on one contender over several lock paths: worker
	 * {@code w<i>} takes the lock paths from the ({@code i} mod their number)-th on, in order, and
	 * holds them all (with two, {@code w0} holds both and {@code w1} the second alone).
	 * @param giveUpEvery every n-th attempt of a worker waits only a few milliseconds for each lock
	 * (mostly giving up); 0 for never
	 */
	public void run(ContenderProcess contender, List<String> lockPaths, int threads, int rounds, int sectionMinMs,
			int sectionMaxMs, int reentrantEvery, int giveUpEvery, CallShape shape) {
		contender.call("run " + String.join(",", lockPaths) + " " + threads + " " + rounds + " " + sectionMinMs + " "
				+ sectionMaxMs + " " + reentrantEvery + " " + lockWait().toMillis() + " shape=" + shape.word()
				+ ((giveUpEvery > 0) ? " give-up-every=" + giveUpEvery : ""), "running", Duration.ofSeconds(30));
	}

	/** Waits until every live contender finished its rounds; returns the total. */
	public int awaitRunsDone(Duration timeout) {
		int total = 0;
		for (ContenderProcess contender : live()) {
			total += Integer.parseInt(contender.awaitReply("run-done", timeout).trim());
		}
		return total;
	}

	/** Stops the rounds of every live contender; returns the rounds they completed. */
	public int stopAll() {
		List<ContenderProcess> live = live();
		live.forEach((contender) -> contender.send("stop"));
		int total = 0;
		for (ContenderProcess contender : live) {
			total += Integer.parseInt(contender.awaitReply("stopped", Duration.ofSeconds(60)).trim());
		}
		return total;
	}

	/**
	 * The hygiene check: with every contender idle but its session open, no member may keep a
	 * watch under the lock root (sessions of killed contenders are waited out); then, with every
	 * contender closed, no node may be left under the lock root (containers are reaped too).
	 * @return what was left after waiting
	 */
	public Leaks closeContendersAndCheckLeaks() throws Exception {
		Duration patience = this.sessionTimeout.multipliedBy(2).plusSeconds(10);
		List<String> watches = awaitEmpty(() -> EnsembleProbe.lockWatches(this.ensemble), patience);
		closeContenders();
		List<String> nodes = awaitEmpty(() -> EnsembleProbe.nodesUnderLockRoot(this.ensemble), patience);
		return new Leaks(nodes, watches);
	}

	/**
	 * Waits until {@code probe} finds nothing left.
	 * @return what it found last: empty, or what was still there after {@code patience}
	 */
	public static List<String> awaitEmpty(java.util.concurrent.Callable<List<String>> probe, Duration patience) {
		try {
			return await().atMost(patience).pollInterval(Duration.ofMillis(200)).until(probe, List::isEmpty);
		}
		catch (org.awaitility.core.ConditionTimeoutException ex) {
			try {
				return probe.call();
			}
			catch (Exception failure) {
				throw new IllegalStateException(failure);
			}
		}
	}

	private void closeContenders() {
		List<ContenderProcess> all;
		synchronized (this.contenders) {
			all = new ArrayList<>(this.contenders.values());
		}
		all.stream().map((c) -> CompletableFuture.runAsync(c::close)).toList().forEach(CompletableFuture::join);
	}

	@Override
	public void close() {
		try {
			closeContenders();
			this.proxies.values().forEach(BlackHoleProxy::close);
			this.register.close();
		}
		finally {
			this.history.writeTo(outputDir().resolve("history.txt"));
			this.ensemble.close();
		}
	}

	/** Where this lab's history file is written. */
	public String historyFile() {
		return outputDir().resolve("history.txt").toString();
	}

	/**
	 * What the hygiene check found left behind.
	 *
	 * @param nodes nodes under the lock root after every contender closed
	 * @param watches watches under the lock root while every contender was idle
	 */
	public record Leaks(List<String> nodes, List<String> watches) {

	}

}
