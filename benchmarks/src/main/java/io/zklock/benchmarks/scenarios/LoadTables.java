package io.zklock.benchmarks.scenarios;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

import io.zklock.benchmarks.client.Library;
import io.zklock.benchmarks.load.Contender;
import io.zklock.benchmarks.load.LoadOutcome;

/**
 * Turns load outcomes per library (or contender) into table rows.
 */
final class LoadTables {

	private LoadTables() {
	}

	/**
	 * One figure of every library's outcome, by the library's display name.
	 * @param outcomes the outcomes, in column order
	 * @param figure the figure to take
	 * @return the row's values
	 */
	static Map<String, Double> row(Map<Library, LoadOutcome> outcomes, ToDoubleFunction<LoadOutcome> figure) {
		return named(outcomes, Library::displayName, figure);
	}

	/**
	 * One figure of every contender's outcome, by the contender's display name.
	 * @param outcomes the outcomes, in column order
	 * @param figure the figure to take
	 * @return the row's values
	 */
	static Map<String, Double> contenderRow(Map<Contender, LoadOutcome> outcomes, ToDoubleFunction<LoadOutcome> figure) {
		return named(outcomes, Contender::displayName, figure);
	}

	private static <K> Map<String, Double> named(Map<K, LoadOutcome> outcomes, Function<K, String> name,
			ToDoubleFunction<LoadOutcome> figure) {
		Map<String, Double> values = new LinkedHashMap<>();
		outcomes.forEach((key, outcome) -> values.put(name.apply(key), figure.applyAsDouble(outcome)));
		return values;
	}

	/**
	 * The display names of the peers (every library but zklock).
	 * @param libraries the libraries, zklock first
	 * @return the peers' names
	 */
	static List<String> peers(List<Library> libraries) {
		return libraries.stream().filter((library) -> library != Library.ZKLOCK).map(Library::displayName).toList();
	}

}
