package io.zklock.benchmarks;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.zklock.benchmarks.server.ServerKind;

/**
 * The command line of {@link BenchmarkMain}.
 *
 * @param scale full or quick
 * @param servers the servers to run against, in order
 * @param scenarios the scenario numbers to run (all if empty)
 * @param output the directory of the results file and charts
 * @param command the command line to print in the report
 * @param gate whether to run the regression gate (counts that do not depend on the machine)
 * instead of the scenarios
 */
public record BenchmarkOptions(Scale scale, List<ServerKind> servers, Set<Integer> scenarios, Path output,
		String command, boolean gate) {

	/** The highest scenario number. */
	public static final int LAST_SCENARIO = 15;

	/** The usage text. */
	public static final String USAGE = """
			usage: benchmarks/run.sh [--quick | --gate] [--server=process|embedded|ensemble|both|all] [--scenarios=1,3,...] [--output=DIR]
			  --quick        a few seconds per scenario (CI); writes to benchmarks/target/quick-results
			  --gate         the regression gate: counts that do not depend on the machine, against
			                 fixed bounds; exits 1 if one is out (CI); writes to benchmarks/target/gate-results
			  --server=      the ZooKeeper server(s): in-process, standalone child process, a 3-member
			                 ensemble with an observer, both (process and embedded), or all (default)
			  --scenarios=   only these scenario numbers (1-15); default all
			  --output=DIR   where RESULTS.md and the charts go (full default: benchmarks/)""";

	/**
	 * Parses the arguments.
	 * @param args the arguments
	 * @param moduleDirectory the benchmarks module's directory, for the default output
	 * @return the options
	 * @throws IllegalArgumentException with the usage if an argument is unknown
	 */
	public static BenchmarkOptions parse(String[] args, Path moduleDirectory) {
		boolean quick = false;
		boolean gate = false;
		List<ServerKind> servers = List.of(ServerKind.PROCESS, ServerKind.EMBEDDED, ServerKind.ENSEMBLE);
		Set<Integer> scenarios = new LinkedHashSet<>();
		Path output = null;
		String command = System.getProperty("bench.command", "benchmarks/run.sh " + String.join(" ", args)).strip();
		for (String arg : args) {
			if (arg.equals("--quick")) {
				quick = true;
			}
			else if (arg.equals("--gate")) {
				gate = true;
			}
			else if (arg.startsWith("--server=")) {
				servers = servers(arg.substring("--server=".length()));
			}
			else if (arg.startsWith("--scenarios=")) {
				for (String number : arg.substring("--scenarios=".length()).split(",")) {
					scenarios.add(scenario(number.trim()));
				}
			}
			else if (arg.startsWith("--output=")) {
				output = Path.of(arg.substring("--output=".length()));
			}
			else {
				throw new IllegalArgumentException("Unknown argument '" + arg + "'\n" + USAGE);
			}
		}
		if (output == null) {
			output = gate ? moduleDirectory.resolve("target").resolve("gate-results")
					: quick ? moduleDirectory.resolve("target").resolve("quick-results") : moduleDirectory;
		}
		return new BenchmarkOptions((quick || gate) ? Scale.quick() : Scale.full(), servers, scenarios, output, command,
				gate);
	}

	private static List<ServerKind> servers(String value) {
		if (value.contains(",")) {
			List<ServerKind> servers = new java.util.ArrayList<>();
			for (String one : value.split(",")) {
				servers(one.trim()).stream().filter((kind) -> !servers.contains(kind)).forEach(servers::add);
			}
			return List.copyOf(servers);
		}
		return switch (value) {
			case "embedded" -> List.of(ServerKind.EMBEDDED);
			case "process" -> List.of(ServerKind.PROCESS);
			case "ensemble" -> List.of(ServerKind.ENSEMBLE);
			case "both" -> List.of(ServerKind.PROCESS, ServerKind.EMBEDDED);
			case "all" -> List.of(ServerKind.PROCESS, ServerKind.EMBEDDED, ServerKind.ENSEMBLE);
			default -> throw new IllegalArgumentException(
					"Unknown server '" + value + "'; use embedded, process, ensemble, both or all\n" + USAGE);
		};
	}

	private static int scenario(String number) {
		try {
			int value = Integer.parseInt(number);
			if (value >= 1 && value <= LAST_SCENARIO) {
				return value;
			}
		}
		catch (NumberFormatException ex) {
			// reported below
		}
		throw new IllegalArgumentException(
				"Unknown scenario '" + number + "'; scenarios are 1 to " + LAST_SCENARIO + "\n" + USAGE);
	}

	/**
	 * The scenarios a quick run (CI) runs on the ensemble when none are chosen: the ensemble's own
	 * code paths (an uncontended cycle, contended loads over four members) within CI's time; the
	 * peer scenarios run on the process server.
	 */
	static final Set<Integer> QUICK_ENSEMBLE = Set.of(1, 3, 4);

	/**
	 * Whether a quick run with no scenarios chosen runs a scenario on a server: on the ensemble only
	 * {@link #QUICK_ENSEMBLE}; everything else everywhere.
	 * @param kind the server
	 * @param number the scenario's number
	 * @return {@code true} unless a quick run leaves it out
	 */
	public boolean quickRuns(ServerKind kind, int number) {
		return !this.scale.isQuick() || !this.scenarios.isEmpty() || kind != ServerKind.ENSEMBLE
				|| QUICK_ENSEMBLE.contains(number);
	}

	/**
	 * Whether a scenario is selected.
	 * @param number the scenario's number
	 * @return {@code true} if it runs
	 */
	public boolean runs(int number) {
		return this.scenarios.isEmpty() || this.scenarios.contains(number);
	}

}
