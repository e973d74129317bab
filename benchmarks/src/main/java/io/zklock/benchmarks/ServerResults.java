package io.zklock.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.zklock.benchmarks.client.Library;
import io.zklock.benchmarks.report.ReportTable;
import io.zklock.benchmarks.report.Target;
import io.zklock.benchmarks.server.ServerKind;

/**
 * Everything measured against one server: the scenario tables, scenario 3's curve, the
 * protocol checks and the scenarios that crashed. Not thread-safe.
 */
public final class ServerResults {

	private final ServerKind kind;

	private final String serverDescription;

	private final List<ReportTable> tables = new ArrayList<>();

	private final Map<Library, TreeMap<Integer, Double>> curve = new TreeMap<>();

	private final List<Check> checks = new ArrayList<>();

	private final List<String> failures = new ArrayList<>();

	private final List<Target> targets = new ArrayList<>();

	private final List<String> skipped = new ArrayList<>();

	/**
	 * Creates empty results.
	 * @param kind the kind of server
	 * @param serverDescription how the server ran
	 */
	public ServerResults(ServerKind kind, String serverDescription) {
		this.kind = kind;
		this.serverDescription = serverDescription;
	}

	/**
	 * Adds a scenario table.
	 * @param table the table
	 */
	public void add(ReportTable table) {
		this.tables.add(table);
	}

	/**
	 * Records a point of scenario 3's curve.
	 * @param library the library
	 * @param clients the number of clients
	 * @param handoffsPerSecond the throughput
	 */
	public void curvePoint(Library library, int clients, double handoffsPerSecond) {
		this.curve.computeIfAbsent(library, (l) -> new TreeMap<>()).put(clients, handoffsPerSecond);
	}

	/**
	 * Records a protocol check (not a timing).
	 * @param description what was checked, with the figure
	 * @param passed whether it held
	 */
	public void check(String description, boolean passed) {
		this.checks.add(new Check(description, passed));
	}

	/**
	 * Records a target of an issue (a figure of zklock's against a peer's).
	 * @param target the target with the run's figures
	 */
	public void target(Target target) {
		this.targets.add(target);
	}

	/**
	 * Records a scenario that could not run here, and why.
	 * @param scenario the scenario's title
	 * @param reason what it needs
	 */
	public void skip(String scenario, String reason) {
		this.skipped.add(scenario + ": " + reason);
	}

	/**
	 * Records a scenario that crashed.
	 * @param scenario the scenario's title
	 * @param failure what went wrong
	 */
	public void fail(String scenario, Throwable failure) {
		this.failures.add(scenario + ": " + failure);
	}

	/**
	 * The kind of server.
	 * @return the kind
	 */
	public ServerKind kind() {
		return this.kind;
	}

	/**
	 * How the server ran.
	 * @return the description
	 */
	public String serverDescription() {
		return this.serverDescription;
	}

	/**
	 * The scenario tables.
	 * @return the tables in scenario order
	 */
	public List<ReportTable> tables() {
		return List.copyOf(this.tables);
	}

	/**
	 * Scenario 3's curve.
	 * @return handoffs per second by client count, per library
	 */
	public Map<Library, TreeMap<Integer, Double>> curve() {
		return this.curve;
	}

	/**
	 * The protocol checks.
	 * @return the checks in order
	 */
	public List<Check> checks() {
		return List.copyOf(this.checks);
	}

	/**
	 * The targets of the issues.
	 * @return the targets in scenario order
	 */
	public List<Target> targets() {
		return List.copyOf(this.targets);
	}

	/**
	 * The scenarios that could not run here.
	 * @return one line per scenario, with the reason
	 */
	public List<String> skipped() {
		return List.copyOf(this.skipped);
	}

	/**
	 * The scenarios that crashed.
	 * @return one line per crash
	 */
	public List<String> failures() {
		return List.copyOf(this.failures);
	}

	/**
	 * One protocol check.
	 * @param description what was checked
	 * @param passed whether it held
	 */
	public record Check(String description, boolean passed) {
	}

}
