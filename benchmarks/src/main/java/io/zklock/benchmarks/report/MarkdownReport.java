package io.zklock.benchmarks.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.zklock.benchmarks.ServerResults;

/**
 * Renders a whole run as Markdown: the run's facts, then per server every scenario table,
 * the chart, where zklock is behind a peer, the targets against the peers, the protocol checks, and
 * any skipped or crashed scenarios.
 */
public final class MarkdownReport {

	private final Map<String, String> environment;

	private final String command;

	private final String scale;

	private final List<ServerResults> servers;

	private final Map<ServerResults, String> charts;

	/**
	 * Creates a report.
	 * @param environment the run's facts
	 * @param command the command that ran
	 * @param scale a sentence on iterations and durations
	 * @param servers the results, one per server
	 * @param charts the chart's path (relative to the report) per server
	 */
	public MarkdownReport(Map<String, String> environment, String command, String scale, List<ServerResults> servers,
			Map<ServerResults, String> charts) {
		this.environment = environment;
		this.command = command;
		this.scale = scale;
		this.servers = servers;
		this.charts = charts;
	}

	/**
	 * The Markdown.
	 * @return the report
	 */
	public String render() {
		StringBuilder out = new StringBuilder();
		out.append("## Run\n\n| | |\n|---|---|\n");
		this.environment.forEach((name, value) -> out.append("| ").append(name).append(" | ").append(value).append(" |\n"));
		out.append("| command | `").append(this.command).append("` |\n");
		out.append("| iterations | ").append(this.scale).append(" |\n\n");
		out.append("Columns: **zklock** = `ExclusiveLockByCurator` / `SharedLockByCurator` (handle API: "
				+ "`acquire(path, mode)` or `tryAcquire(path, mode, wait)`, then `release()`: call-owned handles, never "
				+ "reentrant), one `LockEngine` per client. **Curator** = "
				+ "`InterProcessMutex` (scenario 5: `InterProcessReadWriteLock`) used directly, one instance per lock "
				+ "path and client, shared by that client's threads (scenario 8: a new instance per acquire). **Spring Integration** = "
				+ "`ZookeeperLockRegistry.obtain(key).lock()`/`unlock()` with its defaults. Every client is its own Curator session (no "
				+ "namespace, 60 s session timeout); all libraries share the server of a section, each under a root "
				+ "of its own. Ratios are zklock/peer from the same run: above 1 means more of the metric.\n\n");
		for (ServerResults server : this.servers) {
			out.append("## Server: ").append(server.serverDescription()).append("\n\n");
			List<String> behind = new ArrayList<>();
			for (ReportTable table : server.tables()) {
				out.append("### ").append(table.title()).append("\n\n").append(table.toMarkdown()).append('\n');
				if (table.title().startsWith("3c.") && this.charts.containsKey(server)) {
					out.append("![Scenario 3: handoffs per second by number of clients](")
						.append(this.charts.get(server))
						.append(")\n\n");
				}
				behind.addAll(table.subjectBehind());
			}
			out.append("### Where zklock is behind a peer (").append(server.kind().optionValue())
				.append(" server)\n\nEvery row where zklock's figure is worse than a peer's by more than ")
				.append(Math.round(Comparison.NOISE * 100))
				.append("%; the analysis below says why.\n\n");
			if (behind.isEmpty()) {
				out.append("- none\n");
			}
			behind.forEach((line) -> out.append("- ").append(line).append('\n'));
			if (!server.targets().isEmpty()) {
				out.append("\n### Targets (").append(server.kind().optionValue())
					.append(" server)\n\nzklock against a peer in this run: the targets against Curator are set for the process server, "
							+ "those against Redis, etcd and Hazelcast for the process server and the ensemble.\n\n")
					.append("| figure | zklock | peer | peer's figure | zklock/peer | target | met |\n|---|---:|---|---:|---:|---|---|\n");
				server.targets().forEach((target) -> out.append(target.toMarkdownRow()).append('\n'));
			}
			out.append("\n### Protocol checks (").append(server.kind().optionValue()).append(" server)\n\n");
			server.checks()
				.forEach((check) -> out.append("- ")
					.append(check.passed() ? "PASS" : "**FAIL**")
					.append(": ")
					.append(check.description())
					.append('\n'));
			if (!server.skipped().isEmpty()) {
				out.append("\n### Scenarios skipped (").append(server.kind().optionValue()).append(" server)\n\n");
				server.skipped().forEach((skip) -> out.append("- ").append(skip).append('\n'));
			}
			if (!server.failures().isEmpty()) {
				out.append("\n### Scenarios that crashed (").append(server.kind().optionValue()).append(" server)\n\n");
				server.failures().forEach((failure) -> out.append("- ").append(failure).append('\n'));
			}
			out.append('\n');
		}
		return out.toString();
	}

}
