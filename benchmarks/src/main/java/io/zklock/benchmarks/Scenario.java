package io.zklock.benchmarks;

/**
 * One scenario of the issue: measures zklock and its peers on one server and adds the
 * comparison to the results.
 */
public interface Scenario {

	/**
	 * The scenario's number, as the issue counts them.
	 * @return 1 to 8
	 */
	int number();

	/**
	 * The scenario's title.
	 * @return such as {@code "Uncontended acquire + release"}
	 */
	String title();

	/**
	 * Runs the scenario.
	 * @param context the server, scale and results
	 * @throws Exception if the scenario crashes
	 */
	void run(ScenarioContext context) throws Exception;

}
