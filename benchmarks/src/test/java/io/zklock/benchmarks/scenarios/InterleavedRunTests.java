package io.zklock.benchmarks.scenarios;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.benchmarks.client.Library;
import io.zklock.benchmarks.client.LockClient;
import io.zklock.benchmarks.client.ProtocolFloorClient;
import io.zklock.benchmarks.client.ProtocolLadder;
import io.zklock.benchmarks.client.ZkClient;
import io.zklock.benchmarks.server.InProcessZooKeeper;
import io.zklock.lock.LockMode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The interleaved runs read the server's counters right: an uncontended cycle of every library
 * is the protocol's three requests, and a call that sends nothing counts zero. No timing is
 * asserted.
 */
@Timeout(60)
@Tag("slow")
class InterleavedRunTests {

	private static InProcessZooKeeper server;

	@BeforeAll
	static void startServer() throws Exception {
		server = InProcessZooKeeper.start();
	}

	@AfterAll
	static void stopServer() {
		server.close();
	}

	@Test
	void shouldCountThreeRequestsPerUncontendedCycleOfEveryLibrary() throws Exception {
		Map<String, InterleavedRun.Call> variants = new LinkedHashMap<>();
		Map<Library, ZkClient> sessions = new LinkedHashMap<>();
		try {
			for (Library library : Library.values()) {
				ZkClient session = ZkClient.connect(server.connectString());
				sessions.put(library, session);
				LockClient locks = library.open(session, "/test/interleaved");
				variants.put(library.id(), () -> locks.lock("solo", LockMode.EXCLUSIVE).unlock());
			}
			variants.put("nothing", () -> {
			});

			Map<String, InterleavedRun.Figures> figures = new InterleavedRun(server, 2, Duration.ofMillis(50))
				.run(variants);

			for (Library library : Library.values()) {
				assertThat(figures.get(library.id()).requestsPerCall()).as(library.displayName()).isEqualTo(3.0);
				assertThat(figures.get(library.id()).calls()).isPositive();
			}
			assertThat(figures.get("nothing").requestsPerCall()).isEqualTo(0.0);
			assertThat(figures.keySet()).containsExactly("zklock", "zklock-local-handoff", "curator",
					"spring-integration", "nothing");
		}
		finally {
			sessions.values().forEach(ZkClient::close);
		}
	}

	@Test
	void shouldCountTheFloorsTwoWritesAndEachRungOfTheLadder() throws Exception {
		Map<String, InterleavedRun.Call> variants = new LinkedHashMap<>();
		try (ProtocolFloorClient floor = ProtocolFloorClient.connect(server.connectString(), "/test/floor");
				ZkClient session = ZkClient.connect(server.connectString())) {
			variants.put("floor", () -> floor.lock("solo", LockMode.EXCLUSIVE).unlock());
			for (ProtocolLadder.Rung rung : ProtocolLadder.Rung.values()) {
				ProtocolLadder steps = ProtocolLadder.open(rung, session, "/test/ladder");
				variants.put(rung.name(), () -> steps.lock("solo", LockMode.EXCLUSIVE).unlock());
			}

			Map<String, InterleavedRun.Figures> figures = new InterleavedRun(server, 2, Duration.ofMillis(50))
				.run(variants);

			assertThat(figures.get("floor").requestsPerCall()).isEqualTo(2.0);
			assertThat(figures.get("floor").commitsPerCall()).isEqualTo(2.0);
			assertThat(figures.get(ProtocolLadder.Rung.ASYNC.name()).requestsPerCall()).isEqualTo(2.0);
			for (ProtocolLadder.Rung rung : ProtocolLadder.Rung.values()) {
				if (rung != ProtocolLadder.Rung.ASYNC) {
					assertThat(figures.get(rung.name()).requestsPerCall()).as(rung.name()).isEqualTo(3.0);
					assertThat(figures.get(rung.name()).commitsPerCall()).as(rung.name()).isEqualTo(2.0);
				}
			}
			assertThat(session.curator().getChildren().forPath("/test/floor/floor/solo")).isEmpty();
		}
	}

	@Test
	void shouldTellTheCallersCpuAndAllocationsFromTheOtherThreads() throws Exception {
		Map<String, InterleavedRun.Call> variants = new LinkedHashMap<>();
		Object[] sink = new Object[1];
		variants.put("busy caller", () -> {
			long end = System.nanoTime() + 200_000;
			while (System.nanoTime() < end) {
				sink[0] = new byte[64];
			}
		});
		variants.put("idle caller", () -> Thread.sleep(1));

		Map<String, InterleavedRun.Figures> figures = new InterleavedRun(server, 2, Duration.ofMillis(50))
			.run(variants);

		InterleavedRun.Figures busy = figures.get("busy caller");
		assertThat(busy.callerCpuMicrosPerCall()).isPositive();
		assertThat(busy.threadsCpuMicrosPerCall()).isGreaterThanOrEqualTo(busy.callerCpuMicrosPerCall());
		assertThat(busy.allocatedBytesPerCall()).isGreaterThan(64);
		assertThat(figures.get("idle caller").callerCpuMicrosPerCall()).isLessThan(busy.callerCpuMicrosPerCall());
	}

	@Test
	void shouldReportPercentilesOfTheTimedPartOfTheCalls() throws Exception {
		Map<String, InterleavedRun.TimedCall> variants = new LinkedHashMap<>();
		long[] next = { 0 };
		// 1, 2, 3, ... 100 µs, over and over: the median is 50 µs and the 99th percentile 99 µs
		variants.put("timed", () -> (next[0]++ % 100 + 1) * 1000);
		variants.put("untimed", () -> -1);

		Map<String, InterleavedRun.Figures> figures = new InterleavedRun(server, 1, Duration.ofMillis(20))
			.runTimed(variants);

		assertThat(figures.get("timed").timedP50Micros()).isBetween(49.0, 51.0);
		assertThat(figures.get("timed").timedP99Micros()).isBetween(98.0, 100.0);
		assertThat(figures.get("untimed").timedP50Micros()).isNaN();
	}

}
