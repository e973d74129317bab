package io.zklock.benchmarks.scenarios;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import org.apache.zookeeper.CreateMode;
import org.redisson.Redisson;
import org.redisson.api.RBucket;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import io.zklock.benchmarks.Scenario;
import io.zklock.benchmarks.ScenarioContext;
import io.zklock.benchmarks.client.BaselineZklockClient;
import io.zklock.benchmarks.client.Library;
import io.zklock.benchmarks.client.LockClient;
import io.zklock.benchmarks.client.ProtocolFloorClient;
import io.zklock.benchmarks.client.ProtocolLadder;
import io.zklock.benchmarks.client.ZkClient;
import io.zklock.benchmarks.jmh.UncontendedLockBenchmark;
import io.zklock.benchmarks.load.Contender;
import io.zklock.benchmarks.peers.Peer;
import io.zklock.benchmarks.report.Comparison;
import io.zklock.benchmarks.report.Metric;
import io.zklock.benchmarks.report.Target;
import io.zklock.benchmarks.report.TextTable;
import io.zklock.benchmarks.scenarios.InterleavedRun.Figures;
import io.zklock.benchmarks.scenarios.InterleavedRun.Variant;
import io.zklock.benchmarks.server.RequestCounter;
import io.zklock.benchmarks.server.ZooKeeperEnsemble;

/**
 * Scenario 9: uncontended acquire + release of one lock (1 client, 1 thread), zklock against
 * Curator and the peers, in one interleaved run; with them the protocol's floor measured
 * ({@link ProtocolFloorClient}: a raw ZooKeeper client that sends only the cycle's two writes),
 * and single ZooKeeper reads and writes and Redis reads on their own sessions, so that a cycle's
 * time can be split into round trips, the commit, and what the library adds above them. Client
 * CPU is told apart per library ({@link InterleavedRun}: the calling thread and the library's
 * own threads in its slices). With {@code BENCH_BASELINE} set, another build of zklock runs
 * beside this one ({@link BaselineZklockClient}).
 */
public final class PeerUncontendedScenario implements Scenario {

	static final String ROOT = "/bench/peers-uncontended";

	private static final String READ = "ZooKeeper read (exists)";

	private static final String WRITE = "ZooKeeper write (setData)";

	private static final String REDIS_READ = "Redis read (GET)";

	private static final String VIA_MEMBER = "ZooKeeper write via ";

	/** The column of the protocol's floor: the cycle's two writes on a raw ZooKeeper client. */
	static final String FLOOR = "protocol floor";

	private static String viaMember(int member, String role) {
		return VIA_MEMBER + "member " + (member + 1) + " (" + role + ")";
	}

	@Override
	public int number() {
		return 9;
	}

	@Override
	public String title() {
		return "Uncontended acquire + release against the peers (1 client, 1 thread)";
	}

	@Override
	public void run(ScenarioContext context) throws Exception {
		if (!PeerLineup.runs(context, this)) {
			return;
		}
		List<Contender> contenders = PeerLineup.contenders(context, ROOT, List.of(Library.ZKLOCK, Library.CURATOR));
		List<String> columns = new ArrayList<>(List.of(FLOOR));
		List<AutoCloseable> resources = new ArrayList<>();
		Map<String, Figures> figures;
		try {
			Map<String, Variant> variants = new LinkedHashMap<>();
			for (Contender contender : contenders) {
				LockClient locks = contender.open(0);
				resources.add(locks);
				variants.put(contender.displayName(),
						new Variant(() -> UncontendedLockBenchmark.cycle(locks, null), contender.counter()));
			}
			RequestCounter zooKeeper = context.server().counters();
			LockClient floor = ProtocolFloorClient.connect(context.server().connectString(0), ROOT);
			resources.add(floor);
			variants.put(FLOOR, new Variant(() -> UncontendedLockBenchmark.cycle(floor, null), zooKeeper));
			warmUp(floor, context.scale().driverWarmup());
			if (BaselineZklockClient.configured()) {
				ZkClient baselineSession = ZkClient.connect(context.server().connectString(0));
				resources.add(baselineSession);
				LockClient baseline = BaselineZklockClient.open(baselineSession, ROOT);
				resources.add(0, baseline);
				// warmed up as the libraries were before the first scenario
				warmUp(baseline, context.scale().driverWarmup());
				variants.put(BaselineZklockClient.DISPLAY_NAME,
						new Variant(() -> UncontendedLockBenchmark.cycle(baseline, null), zooKeeper));
				columns.add(BaselineZklockClient.DISPLAY_NAME);
			}
			for (ProtocolLadder.Rung rung : ProtocolLadder.Rung.values()) {
				ZkClient rungSession = ZkClient.connect(context.server().connectString(0));
				resources.add(rungSession);
				LockClient steps = ProtocolLadder.open(rung, rungSession, ROOT);
				warmUp(steps, context.scale().driverWarmup().dividedBy(4));
				variants.put(rung.displayName(), new Variant(() -> UncontendedLockBenchmark.cycle(steps, null), zooKeeper));
			}
			ZkClient session = ZkClient.connect(context.server().connectString(0));
			resources.add(session);
			String node = session.curator().create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL)
				.forPath(ROOT + "-round-trip", new byte[8]);
			variants.put(READ, new Variant(() -> {
				session.curator().checkExists().forPath(node);
				return -1;
			}, zooKeeper));
			variants.put(WRITE, new Variant(() -> {
				session.curator().setData().forPath(node, new byte[8]);
				return -1;
			}, zooKeeper));
			if (context.server() instanceof ZooKeeperEnsemble ensemble) {
				// a write through each member: what a follower, the leader and the observer cost a client
				List<String> roles = ensemble.roles();
				for (int member = 0; member < roles.size(); member++) {
					ZkClient memberSession = ZkClient.connect(ensemble.connectString(member));
					resources.add(memberSession);
					String memberNode = memberSession.curator().create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
						.forPath(ROOT + "-member-", new byte[8]);
					variants.put(viaMember(member, roles.get(member)), new Variant(() -> {
						memberSession.curator().setData().forPath(memberNode, new byte[8]);
						return -1;
					}, zooKeeper));
				}
			}
			String redis = context.peers().address(Peer.REDISSON_RLOCK);
			if (redis != null) {
				Config config = new Config();
				config.useSingleServer().setAddress(redis);
				RedissonClient redisson = Redisson.create(config);
				resources.add(redisson::shutdown);
				RBucket<String> bucket = redisson.getBucket(ROOT + "-round-trip");
				bucket.set("x");
				variants.put(REDIS_READ, new Variant(() -> {
					bucket.get();
					return -1;
				}, RequestCounter.NONE));
			}
			figures = new InterleavedRun(context.server(), context.scale().interleavedRounds(),
					context.scale().interleavedSlice())
				.runCounted(variants);
		}
		finally {
			for (AutoCloseable resource : resources) {
				resource.close();
			}
		}
		figures.forEach((name, figure) -> System.out.printf(Locale.ROOT,
				"  %-26s %,8.0f cycles/s, acquire p50 %.0f µs p99 %.0f µs, %.2f requests, %.2f commits, server CPU %.0f µs, "
						+ "client CPU %.0f µs (threads %.0f, caller %.0f), %,.0f bytes%n",
				name, figure.perSecond(), figure.timedP50Micros(), figure.timedP99Micros(), figure.requestsPerCall(),
				figure.commitsPerCall(), figure.serverCpuMicrosPerCall(), figure.clientCpuMicrosPerCall(),
				figure.threadsCpuMicrosPerCall(), figure.callerCpuMicrosPerCall(), figure.allocatedBytesPerCall()));
		columns.addAll(PeerLineup.peerColumns(contenders));
		Comparison table = new Comparison("9. " + title(), Library.ZKLOCK.displayName(), columns);
		table.reference(FLOOR);
		table.row(Metric.throughput("cycles/s (1 thread, interleaved runs)"), row(columns, figures, Figures::perSecond));
		table.row(Metric.cost("acquire p50 µs, time to grant", 1), row(columns, figures, Figures::timedP50Micros));
		table.row(Metric.cost("acquire p99 µs, time to grant", 1), row(columns, figures, Figures::timedP99Micros));
		table.row(Metric.cost("requests or commands/cycle (server count)", 2), row(columns, figures, Figures::requestsPerCall));
		table.row(Metric.cost("writes committed/cycle (server count)", 2), row(columns, figures, Figures::commitsPerCall));
		table.row(Metric.cost("server CPU µs/cycle", 0), row(columns, figures, Figures::serverCpuMicrosPerCall));
		table.row(Metric.cost("client CPU µs/cycle (the library's threads and the caller)", 0),
				row(columns, figures, Figures::threadsCpuMicrosPerCall));
		table.row(Metric.cost("of which the calling thread, µs/cycle", 0), row(columns, figures, Figures::callerCpuMicrosPerCall));
		table.row(Metric.cost("heap allocated, bytes/cycle", 0), row(columns, figures, Figures::allocatedBytesPerCall));
		table.row(Metric.cost("client CPU µs/cycle (driver JVM, GC and JIT included)", 0),
				row(columns, figures, Figures::clientCpuMicrosPerCall));
		table.note("Calls: the protocol floor, a raw ZooKeeper client (no Curator, no lock library) on a session of its "
				+ "own: `create(EPHEMERAL_SEQUENTIAL)` (create2) + `delete`, synchronous, nothing looked at: not a lock, "
				+ "the cycle's two writes and nothing else; zklock `acquire(path, EXCLUSIVE)` + `release()`, "
				+ "Curator `InterProcessMutex.acquire()` + `release()`, "
				+ "Redisson `lock()` + `unlock()` (RFencedLock: `lockAndGetToken()`), etcd `Lock(name, lease)` + `Unlock(key)` "
				+ "(one lease per locking thread, kept alive in the background), Hazelcast `lockAndGetFence()` + `unlock()`. "
				+ "All in one interleaved run on the driver (" + context.scale().interleavedRounds() + " rounds × "
				+ context.scale().interleavedSlice().toMillis() + " ms each, order rotated every round). Requests: "
				+ "ZooKeeper's packets received (all members), Redis' commands sent by clients (`EVAL`/`EVALSHA` and "
				+ "pub/sub; the commands a script runs inside are not requests), etcd's gRPC messages received; "
				+ "Hazelcast counts none a benchmark can read (n/a). Writes committed: ZooKeeper transactions, etcd's "
				+ "Raft proposals. Server CPU from /proc (10 ms ticks, summed over the window). Client CPU per library: "
				+ "the CPU time of the driver's Java threads in that library's slices (per-thread clocks, "
				+ "`ThreadMXBean`): the calling thread and the library's own threads (ZooKeeper's I/O and event "
				+ "threads, Curator's, zklock's, Netty's), while the other libraries' threads are idle; the garbage "
				+ "collector and the JIT are only in the driver JVM's figure, and the heap each library allocates "
				+ "(bytes per cycle) is what its garbage costs the collector. " + PeerLineup.serversNote(context));
		context.results().add(table);
		targets(context, figures);
		context.results().add(breakdown(context, figures));
		context.results().add(ladder(context, figures));
	}

	/**
	 * Table 9c: zklock's cycle rebuilt rung by rung from the floor ({@link ProtocolLadder}), each
	 * rung's cost the difference to the one below it, all from the same interleaved run.
	 */
	private static TextTable ladder(ScenarioContext context, Map<String, Figures> figures) {
		TextTable table = new TextTable("9c. zklock's uncontended cycle rung by rung from the floor ("
				+ context.kind().optionValue() + " server, this run)", List.of("rung", "µs per cycle", "µs added",
						"client CPU µs", "CPU added", "heap bytes", "server CPU µs", "requests"));
		List<String> rungs = new ArrayList<>(List.of(FLOOR));
		for (ProtocolLadder.Rung rung : ProtocolLadder.Rung.values()) {
			rungs.add(rung.displayName());
		}
		rungs.add(Library.ZKLOCK.displayName());
		Figures below = null;
		for (String rung : rungs) {
			Figures figure = figures.get(rung);
			double cycle = 1e6 / figure.perSecond();
			table.row(List.of(rung.equals(Library.ZKLOCK.displayName()) ? "zklock (+ its own machinery)" : rung,
					micros(cycle), (below == null) ? "" : micros(cycle - 1e6 / below.perSecond()),
					micros(figure.threadsCpuMicrosPerCall()),
					(below == null) ? "" : micros(figure.threadsCpuMicrosPerCall() - below.threadsCpuMicrosPerCall()),
					micros(figure.allocatedBytesPerCall()), micros(figure.serverCpuMicrosPerCall()),
					format(figure.requestsPerCall())));
			below = figure;
		}
		table.note("Each rung adds one thing zklock's cycle does to the rung above it, measured in the same interleaved "
				+ "run as table 9: replies through the ZooKeeper client's event thread instead of its I/O thread (the "
				+ "asynchronous API: one thread hand-off more per reply), the listing pipelined behind the create, the "
				+ "release as `multi(setData, delete)` (the proof of release a waiter needs no listing for), the "
				+ "protected node name, Curator's background API; the last row is zklock itself, whose difference to the "
				+ "rung above is its own machinery (holds, listeners, the session guard, the leak watch, the engine's "
				+ "threads). Client CPU: the library's threads and the caller (table 9). Differences smaller than the "
				+ "run's noise (two identical builds differ by a few percent) are not a cost.");
		return table;
	}

	private static Map<String, Double> row(List<String> columns, Map<String, Figures> figures,
			ToDoubleFunction<Figures> figure) {
		Map<String, Double> values = new LinkedHashMap<>();
		values.put(Library.ZKLOCK.displayName(), figure.applyAsDouble(figures.get(Library.ZKLOCK.displayName())));
		columns.forEach((column) -> values.put(column, figure.applyAsDouble(figures.get(column))));
		return values;
	}

	/** Runs a client's cycles for a while, as the libraries ran before the first scenario. */
	private static void warmUp(LockClient client, Duration time) throws Exception {
		long end = System.nanoTime() + time.toNanos();
		while (System.nanoTime() - end < 0) {
			UncontendedLockBenchmark.cycle(client, null);
		}
	}

	private static void targets(ScenarioContext context, Map<String, Figures> figures) {
		double zklock = figures.get(Library.ZKLOCK.displayName()).perSecond();
		String server = context.kind().optionValue();
		for (String peer : List.of(Peer.REDISSON_RLOCK.displayName(), Peer.ETCD.displayName(),
				Peer.HAZELCAST.displayName(), Library.CURATOR.displayName())) {
			Figures theirs = figures.get(peer);
			if (theirs != null) {
				double minimum = peer.equals(Peer.REDISSON_RLOCK.displayName()) ? 0.5 : 1.0;
				context.results().target(Target.ratioAtLeast("9. uncontended cycles/s (" + server + ")", zklock,
						peer, theirs.perSecond(), 0, minimum));
			}
		}
		Figures mine = figures.get(Library.ZKLOCK.displayName());
		Figures floor = figures.get(FLOOR);
		Figures curator = figures.get(Library.CURATOR.displayName());
		context.results().target(Target.ratioAtMost("9. uncontended µs/cycle against the protocol floor (" + server + ")",
				1e6 / mine.perSecond(), FLOOR, 1e6 / floor.perSecond(), 0, 1.15));
		context.results().target(Target.ratioAtMost("9. client CPU µs/cycle, library's threads and caller ("
				+ server + ")", mine.threadsCpuMicrosPerCall(), Library.CURATOR.displayName(),
				curator.threadsCpuMicrosPerCall(), 0, 1.0));
		context.results().target(Target.ratioAtLeast("9. uncontended cycles/s, one round trip fewer than Curator (" + server + ")",
				mine.perSecond(), Library.CURATOR.displayName(), curator.perSecond(), 0, 1.1));
	}

	private static TextTable breakdown(ScenarioContext context, Map<String, Figures> figures) {
		Figures zklock = figures.get(Library.ZKLOCK.displayName());
		Figures curator = figures.get(Library.CURATOR.displayName());
		double cycle = 1e6 / zklock.perSecond();
		double read = 1e6 / figures.get(READ).perSecond();
		double write = 1e6 / figures.get(WRITE).perSecond();
		TextTable table = new TextTable("9b. Where zklock's uncontended cycle goes (" + context.kind().optionValue()
				+ " server, this run)", List.of("part", "µs per cycle", "measured as"));
		table.row(List.of("whole cycle (acquire + release)", micros(cycle), "zklock's cycles/s in table 9"));
		table.row(List.of("acquire, median (call to grant)", micros(zklock.timedP50Micros()), "table 9"));
		table.row(List.of("one ZooKeeper read round trip", micros(read), "`exists` on a session of its own, same run"));
		table.row(List.of("one ZooKeeper write round trip", micros(write), "`setData` on a session of its own, same run"));
		table.row(List.of("of which the commit (write − read)", micros(write - read),
				"the leader's proposal, log append" + (context.kind().optionValue().equals("ensemble")
						? ", fsync and a quorum's acknowledgement" : " (no fsync on this server)") + ", apply"));
		table.row(List.of("server CPU per write round trip (setData)", micros(figures.get(WRITE).serverCpuMicrosPerCall()),
				"server's /proc, same slices"));
		table.row(List.of("protocol floor, derived: 2 write round trips", micros(2 * write),
				"2 × `setData`: what the floor would be if a create and a delete cost what a `setData` does"));
		Figures floor = figures.get(FLOOR);
		double measuredFloor = 1e6 / floor.perSecond();
		table.row(List.of("protocol floor, measured: create + delete on a raw ZooKeeper client", micros(measuredFloor),
				"the floor's cycles/s in table 9: " + format(floor.requestsPerCall()) + " requests, "
						+ format(floor.commitsPerCall()) + " writes per cycle"));
		table.row(List.of("measured floor − derived floor", micros(measuredFloor - 2 * write),
				"a create (sequential name, ephemeral, the parent's child list) and a delete cost more than two "
						+ "`setData`s; server CPU per cycle of the floor " + micros(floor.serverCpuMicrosPerCall())
						+ " µs against 2 × " + micros(figures.get(WRITE).serverCpuMicrosPerCall()) + " µs"));
		table.row(List.of("zklock's cycle / measured floor", String.format(Locale.ROOT, "%.2f×", cycle / measuredFloor),
				"zklock: " + format(zklock.requestsPerCall()) + " requests, " + format(zklock.commitsPerCall())
						+ " writes per cycle (create, the listing pipelined behind it, the release's delete)"));
		table.row(List.of("above the measured floor (client library, its threads, the pipelined listing)",
				micros(cycle - measuredFloor), "whole cycle − measured floor"));
		table.row(List.of("above the derived floor", micros(cycle - 2 * write), "whole cycle − derived floor"));
		table.row(List.of("server CPU per cycle", micros(zklock.serverCpuMicrosPerCall()), "table 9; the floor's "
				+ micros(floor.serverCpuMicrosPerCall())));
		table.row(List.of("client CPU per cycle (the library's threads and the caller)",
				micros(zklock.threadsCpuMicrosPerCall()), "table 9; the floor's " + micros(floor.threadsCpuMicrosPerCall())
						+ ", Curator's " + micros(curator.threadsCpuMicrosPerCall())));
		table.row(List.of("client CPU per cycle (driver JVM)", micros(zklock.clientCpuMicrosPerCall()), "table 9"));
		table.row(List.of("Curator's cycle (3 round trips: create, getChildren, delete)", micros(1e6 / curator.perSecond()),
				"table 9"));
		Figures redisson = figures.get(Peer.REDISSON_RLOCK.displayName());
		Figures redisRead = figures.get(REDIS_READ);
		if (redisson != null && redisRead != null) {
			table.row(List.of("Redisson RLock's cycle (2 round trips to memory: EVAL, EVAL)",
					micros(1e6 / redisson.perSecond()), "table 9"));
			table.row(List.of("one Redis round trip", micros(1e6 / redisRead.perSecond()), "`GET` through Redisson, same run"));
		}
		table.row(List.of("lock caching (Chubby), not built: a re-acquire of a kept node is 1 write, a release 0",
				micros(write), String.format(Locale.ROOT, "one write round trip: about %,.0f cycles/s%s", 1e6 / write,
						(redisson == null) ? "" : String.format(Locale.ROOT, ", %.2f× Redisson RLock's",
								(1e6 / write) / redisson.perSecond()))));
		figures.keySet().stream().filter((name) -> name.startsWith(VIA_MEMBER)).forEach((name) -> table.row(List.of(
				"one write round trip via " + name.substring(VIA_MEMBER.length()), micros(1e6 / figures.get(name).perSecond()),
				"`setData` on a session connected to that member only, same run")));
		table.note("Read from the same interleaved run as table 9 (means: 1 / throughput). The read and write round "
				+ "trips are single ZooKeeper calls through Curator on a session of their own; the derived floor is "
				+ "twice the write, the measured floor the cycle's own two writes on a raw ZooKeeper client. "
				+ "Lock caching is an estimate from the write round trip, not a measurement of built code.");
		return table;
	}

	private static String micros(double value) {
		return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%,.0f", value);
	}

	private static String format(double value) {
		return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.2f", value);
	}

}
