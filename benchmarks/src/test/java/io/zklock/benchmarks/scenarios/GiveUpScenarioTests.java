package io.zklock.benchmarks.scenarios;

import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.benchmarks.Scale;
import io.zklock.benchmarks.ScenarioContext;
import io.zklock.benchmarks.ServerResults;
import io.zklock.benchmarks.jmh.JmhRunner;
import io.zklock.benchmarks.peers.PeerServers;
import io.zklock.benchmarks.report.Comparison;
import io.zklock.benchmarks.report.Target;
import io.zklock.benchmarks.server.InProcessZooKeeper;
import io.zklock.benchmarks.server.ServerKind;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 14 runs at the quick scale against a real server: every library gives up the number
 * of times the scale asks, at every wait, zklock's give-ups leave nothing on the lock path, and
 * the targets are there. No timing is asserted (the targets' figures are reported, not checked).
 */
@Timeout(120)
@Tag("slow")
class GiveUpScenarioTests {

	@Test
	void shouldGiveUpAsOftenAsTheScaleAsksAndLeaveNothingBehind() throws Exception {
		Scale scale = Scale.quick();
		ServerResults results;
		try (InProcessZooKeeper server = InProcessZooKeeper.start(); PeerServers peers = new PeerServers(false)) {
			results = new ServerResults(ServerKind.EMBEDDED, server.description());
			new GiveUpScenario().run(new ScenarioContext(server, ServerKind.EMBEDDED, scale, new JmhRunner(scale),
					results, peers));
		}

		// 0, 5 and 50 ms at the short count; 200 ms and 1 s at the long one
		double perLibrary = 3 * scale.giveUpSamples() + 2 * scale.giveUpLongSamples();
		assertThat(results.failures()).isEmpty();
		assertThat(results.tables()).hasSize(1);
		Comparison table = (Comparison) results.tables().get(0);
		Map<String, Double> counted = row(table, "give-ups counted, all waits");
		assertThat(counted).containsOnlyKeys("zklock", "Curator", "Spring Integration")
			.allSatisfy((library, count) -> assertThat(count).as(library).isEqualTo(perLibrary));
		assertThat(row(table, "lock nodes left beside the holder's")).containsEntry("zklock", 0.0);
		assertThat(row(table, "watches left on the lock path above the baseline")).containsEntry("zklock", 0.0);
		for (String wait : new String[] { "0 ms", "5 ms", "50 ms", "200 ms", "1000 ms" }) {
			assertThat(row(table, wait + " wait: give-up p99 (ms)").values()).as(wait).hasSize(3)
				.allSatisfy((millis) -> assertThat(millis).isNotNaN());
		}
		assertThat(results.checks()).singleElement().satisfies((check) -> {
			assertThat(check.passed()).isTrue();
			assertThat(check.description()).startsWith("Scenario 14: " + (int) perLibrary + " zklock give-ups");
		});
		assertThat(results.targets()).extracting(Target::figure)
			.containsExactly("14. give-up overshoot p99 ms, 50 ms wait on a held lock",
					"14. give-up overshoot p99 ms, 50 ms wait on a held lock",
					"14. give-up p50 ms, 0 ms wait on a held lock (the first look)");
	}

	private static Map<String, Double> row(Comparison table, String metric) {
		return table.rows()
			.stream()
			.filter((row) -> row.metric().name().equals(metric))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no row '" + metric + "' in " + table.title()))
			.values();
	}

}
