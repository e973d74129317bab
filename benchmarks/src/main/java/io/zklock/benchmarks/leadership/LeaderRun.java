package io.zklock.benchmarks.leadership;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import io.zklock.fixtures.BlackHoleProxy;

/**
 * Three leader processes of one {@link LeaderLibrary} on the scenario's servers, each behind its
 * own {@link BlackHoleProxy}, writing to one {@link LeaderStore}, and the faults scenario 15 injects
 * on the leader, each measured from the store's records (who wrote, with which token, when its
 * check passed, when the store decided) and the processes' stamped lines. Not thread-safe.
 *
 * <p>
 * The figures, the same for every library:
 * <ul>
 * <li>the <em>successor</em> of a faulted leader begins at its first passed check (or its
 * library's grant callback, if earlier) after the fault began;</li>
 * <li>a <em>stale</em> write is the faulted leader's write that reached the store after its
 * successor began (accepted or refused by the store);</li>
 * <li><em>two running leaders</em>: the faulted leader's checks that passed after its successor
 * began, from the later of that begin and the fault's end to the last such check (0 if none).</li>
 * </ul>
 */
final class LeaderRun implements AutoCloseable {

	private static final Duration STATUS_POLL = Duration.ofMillis(50);

	private final LeaderLibrary library;

	private final LeadershipServers servers;

	private final Duration sessionTimeout;

	private final String role;

	private final String block;

	private final LeaderStore store;

	private final Map<String, BlackHoleProxy> proxies = new LinkedHashMap<>();

	private final Map<String, LeaderChild> children = new LinkedHashMap<>();

	private final Map<String, Integer> generations = new LinkedHashMap<>();

	/**
	 * @param block {@code -}, or a callback every process's library blocks in, such as
	 * {@code onGranted:60000}
	 */
	LeaderRun(LeaderLibrary library, LeadershipServers servers, Duration sessionTimeout, String role, String block)
			throws IOException {
		this.library = library;
		this.servers = servers;
		this.sessionTimeout = sessionTimeout;
		this.role = role;
		this.block = block;
		this.store = LeaderStore.start();
	}

	/** Starts {@code c1} and waits until it writes, then the others in parallel. */
	void start(int count) throws Exception {
		start("c1");
		awaitWrite((w) -> w.writer().equals("c1"), 0, Duration.ofSeconds(60));
		List<CompletableFuture<LeaderChild>> starting = new ArrayList<>();
		for (int i = 2; i <= count; i++) {
			String id = "c" + i;
			starting.add(CompletableFuture.supplyAsync(() -> {
				try {
					return start(id);
				}
				catch (Exception ex) {
					throw new CompletionException(ex);
				}
			}));
		}
		starting.forEach(CompletableFuture::join);
	}

	private LeaderChild start(String id) throws Exception {
		String base = id.split("#")[0];
		BlackHoleProxy proxy;
		synchronized (this.proxies) {
			proxy = this.proxies.computeIfAbsent(base, (b) -> new BlackHoleProxy(b, this.servers.clientPorts()));
		}
		LeaderChild child = LeaderChild.start(this.library, id, proxy.connectString(), this.sessionTimeout,
				this.store.port(), this.role, this.block);
		synchronized (this.children) {
			this.children.put(id, child);
		}
		return child;
	}

	private List<LeaderChild> live() {
		synchronized (this.children) {
			return this.children.values().stream().filter(LeaderChild::isAlive).toList();
		}
	}

	private BlackHoleProxy proxyOf(LeaderChild child) {
		synchronized (this.proxies) {
			return this.proxies.get(child.id().split("#")[0]);
		}
	}

	/** Waits until exactly one running, unfrozen process's check passes, and returns it. */
	LeaderChild awaitSoleLeader(Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		List<String> seen = List.of();
		while (System.nanoTime() - deadline < 0) {
			List<LeaderChild> leading = new ArrayList<>();
			for (LeaderChild child : live()) {
				if (!child.isPaused() && child.status().leads()) {
					leading.add(child);
				}
			}
			if (leading.size() == 1) {
				return leading.get(0);
			}
			seen = leading.stream().map(LeaderChild::id).toList();
			TimeUnit.NANOSECONDS.sleep(STATUS_POLL.toNanos());
		}
		throw new IllegalStateException("not exactly one leader within " + timeout.toSeconds()
				+ " s (leading at the last look: " + seen + ")");
	}

	/** Freezes the sole leader ({@code SIGSTOP}) for {@code duration}, resumes it, and measures. */
	LibraryFigures.StaleLeader freeze(Duration duration) throws Exception {
		LeaderChild leader = awaitSoleLeader(this.sessionTimeout.multipliedBy(3).plusSeconds(10));
		int from = this.store.size();
		long fault = System.nanoTime();
		leader.pause();
		sleepUntil(fault + duration.toNanos());
		long heal = System.nanoTime();
		leader.resume();
		// frozen, it cannot run before it resumes
		return after(leader, from, fault, heal);
	}

	/** Cuts the sole leader off from every member for {@code duration} (its proxy drops all), heals, and measures. */
	LibraryFigures.StaleLeader cutOff(Duration duration) throws Exception {
		LeaderChild leader = awaitSoleLeader(this.sessionTimeout.multipliedBy(3).plusSeconds(10));
		int from = this.store.size();
		long fault = System.nanoTime();
		proxyOf(leader).blackHole();
		sleepUntil(fault + duration.toNanos());
		proxyOf(leader).heal();
		// cut off, it runs on all along
		return after(leader, from, fault, fault);
	}

	/**
	 * Measures a fault of the leader once the role has one leader again.
	 * @param runsFrom from when the faulted leader could run (its resume if frozen, else the fault)
	 */
	private LibraryFigures.StaleLeader after(LeaderChild leader, int from, long fault, long runsFrom) throws Exception {
		LeaderChild successor = awaitSoleLeader(this.sessionTimeout.multipliedBy(3).plusSeconds(10));
		// the faulted leader's late writes: it notices its loss within its own time, let it
		sleepUntil(System.nanoTime() + this.sessionTimeout.toNanos());
		long grant = Long.MAX_VALUE;
		for (LeaderChild child : live()) {
			if (child != leader) {
				grant = Math.min(grant, child.lines()
					.stream()
					.filter((line) -> line.word().equals("GRANTED") && line.nanos() > fault)
					.mapToLong(LeaderChild.Line::nanos)
					.findFirst()
					.orElse(Long.MAX_VALUE));
			}
		}
		return staleLeader(leader.id(), successor.id(), this.store.writesFrom(from), grant, fault, runsFrom);
	}

	/**
	 * The figures of a fault of a leader, from the store's records.
	 * @param leader the faulted process
	 * @param successor the process that led afterwards
	 * @param writes the store's records from before the fault on
	 * @param grant the first grant callback of another process after the fault, or
	 * {@link Long#MAX_VALUE}
	 * @param fault when the fault began
	 * @param runsFrom from when the faulted leader could run (its resume if frozen, else the fault)
	 * @return the figures
	 */
	static LibraryFigures.StaleLeader staleLeader(String leader, String successor, List<LeaderStore.Write> writes,
			long grant, long fault, long runsFrom) {
		long begin = Math.min(grant, writes.stream()
			.filter((w) -> !w.writer().equals(leader) && w.checkNanos() > fault)
			.mapToLong(LeaderStore.Write::checkNanos)
			.min()
			.orElse(Long.MAX_VALUE));
		int accepted = 0;
		int refused = 0;
		long lastStalePass = Long.MIN_VALUE;
		int stalePasses = 0;
		for (LeaderStore.Write write : writes) {
			if (!write.writer().equals(leader)) {
				continue;
			}
			if (write.nanos() > begin) {
				if (write.accepted()) {
					accepted++;
				}
				else {
					refused++;
				}
			}
			if (write.checkNanos() > begin) {
				stalePasses++;
				lastStalePass = Math.max(lastStalePass, write.checkNanos());
			}
		}
		double twoLeadersMs = (stalePasses == 0) ? 0 : Math.max(0, lastStalePass - Math.max(begin, runsFrom)) / 1e6;
		long next = writes.stream()
			.filter((w) -> w.accepted() && !w.writer().equals(leader) && w.nanos() > fault)
			.mapToLong(LeaderStore.Write::nanos)
			.min()
			.orElse(-1);
		return new LibraryFigures.StaleLeader(leader, successor, accepted, refused, stalePasses, twoLeadersMs,
				(next < 0) ? -1 : (next - fault) / 1e6);
	}

	/**
	 * Kills the sole leader ({@code SIGKILL}), waits for the next leader's first accepted write, and
	 * starts a process in its place.
	 * @return from the kill to that write, in ms
	 */
	double kill() throws Exception {
		LeaderChild leader = awaitSoleLeader(this.sessionTimeout.multipliedBy(3).plusSeconds(10));
		int from = this.store.size();
		long fault = System.nanoTime();
		leader.kill();
		LeaderStore.Write next = awaitWrite((w) -> w.accepted() && !w.writer().equals(leader.id()) && w.nanos() > fault,
				from, this.sessionTimeout.multipliedBy(5).plusSeconds(10));
		String base = leader.id().split("#")[0];
		int generation = this.generations.merge(base, 2, (old, two) -> old + 1);
		synchronized (this.children) {
			this.children.remove(leader.id());
		}
		start(base + "#" + generation);
		return (next.nanos() - fault) / 1e6;
	}

	/**
	 * Has the sole leader leave gracefully, waits for the next leader's first accepted write, and
	 * has it join again.
	 */
	LibraryFigures.Handover handOver() throws Exception {
		LeaderChild leader = awaitSoleLeader(this.sessionTimeout.multipliedBy(3).plusSeconds(10));
		int from = this.store.size();
		long began = leader.leave();
		LeaderStore.Write next = awaitWrite(
				(w) -> w.accepted() && !w.writer().equals(leader.id()) && w.checkNanos() > began, from,
				Duration.ofSeconds(30));
		// the old leader's checks that passed after the successor's first one
		long lastOld = this.store.writesFrom(from)
			.stream()
			.filter((w) -> w.writer().equals(leader.id()) && w.checkNanos() > next.checkNanos())
			.mapToLong(LeaderStore.Write::checkNanos)
			.max()
			.orElse(next.checkNanos());
		leader.join();
		return new LibraryFigures.Handover((next.nanos() - began) / 1e6, (lastOld - next.checkNanos()) / 1e6);
	}

	/**
	 * Closes every connection of the sole leader to the members (the session kept) and measures how
	 * long its leader work ran on while its client knew it was suspended: from the client's
	 * {@code Disconnected} (the ZooKeeper client raises it about 100 ms after the socket closed;
	 * from the drop if the process printed none, its event thread being blocked) to the return of
	 * its last check that began and passed after it, before the first of its work stopping, its client reconnecting ({@code SyncConnected}, or
	 * Curator's {@code RECONNECTED}) and {@code cap}. Then waits, at most {@code recovery}, until one
	 * leader writes again.
	 */
	LibraryFigures.Suspension drop(Duration cap, Duration recovery) throws Exception {
		LeaderChild leader = awaitSoleLeader(recovery);
		int mark = leader.mark();
		int from = this.store.size();
		long dropped = System.nanoTime();
		proxyOf(leader).reset();
		Optional<LeaderChild.Line> end = awaitAny(leader, mark, Set.of("STOP", "RECONNECTED", "SYNCCONNECTED"), cap);
		long until = end.map(LeaderChild.Line::nanos).orElse(dropped + cap.toNanos());
		Optional<LeaderChild.Line> disconnected = leader.lines()
			.stream()
			.skip(mark)
			.filter((line) -> line.word().equals("DISCONNECTED"))
			.findFirst();
		long suspended = disconnected.map(LeaderChild.Line::nanos).orElse(dropped);
		// a check that began and returned within the suspension let leader work run while suspended;
		// one that began before or returned after may have looked before or after it (a loaded
		// machine can hold a thread between its stamp and its check)
		OptionalLong lastPass = this.store.writesFrom(from)
			.stream()
			.filter((w) -> w.writer().equals(leader.id()) && w.checkNanos() >= suspended && w.checkedNanos() <= until)
			.mapToLong(LeaderStore.Write::checkedNanos)
			.max();
		// ran through: leader work passed a check while suspended and did not stop before the reconnection
		boolean ranThrough = lastPass.isPresent() && !(end.isPresent() && end.get().word().equals("STOP"));
		int again = this.store.size();
		String unrecovered = null;
		try {
			awaitWrite((w) -> w.accepted(), again, recovery);
			awaitSoleLeader(recovery);
		}
		catch (IllegalStateException ex) {
			unrecovered = ex.getMessage();
		}
		return new LibraryFigures.Suspension(
				lastPass.isPresent() ? Math.max(0, lastPass.getAsLong() - suspended) / 1e6 : 0, ranThrough, end.isEmpty(),
				disconnected.map((line) -> (line.nanos() - dropped) / 1e6).orElse(-1.0), unrecovered);
	}

	private static Optional<LeaderChild.Line> awaitAny(LeaderChild child, int mark, Set<String> words,
			Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() - deadline < 0) {
			Optional<LeaderChild.Line> line = child.lines()
				.stream()
				.skip(mark)
				.filter((l) -> words.contains(l.word()))
				.findFirst();
			if (line.isPresent()) {
				return line;
			}
			TimeUnit.MILLISECONDS.sleep(5);
		}
		return Optional.empty();
	}

	private LeaderStore.Write awaitWrite(java.util.function.Predicate<LeaderStore.Write> matches, int from,
			Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() - deadline < 0) {
			Optional<LeaderStore.Write> write = this.store.writesFrom(from).stream().filter(matches).findFirst();
			if (write.isPresent()) {
				return write.get();
			}
			TimeUnit.MILLISECONDS.sleep(2);
		}
		throw new IllegalStateException("no leader's write accepted within " + timeout.toSeconds() + " s");
	}

	/** Waits until {@code deadline} ({@link System#nanoTime()}): a fault's duration, not a condition. */
	private static void sleepUntil(long deadline) throws InterruptedException {
		long left = deadline - System.nanoTime();
		if (left > 0) {
			TimeUnit.NANOSECONDS.sleep(left);
		}
	}

	@Override
	public void close() throws IOException {
		List<LeaderChild> all;
		synchronized (this.children) {
			all = new ArrayList<>(this.children.values());
		}
		all.forEach(LeaderChild::close);
		synchronized (this.proxies) {
			this.proxies.values().forEach(BlackHoleProxy::close);
		}
		this.store.close();
	}

}
