package io.zklock.sample.demo;

import java.nio.file.Path;

/**
 * The command-line options of {@link InventoryDemo}.
 *
 * @param locking whether the instances lock ({@code false} with {@code --no-lock})
 * @param requests how many reservations to send
 * @param skus how many SKUs to spread them over
 * @param initialStock the starting stock of every SKU
 * @param concurrency how many reservations are in flight at once
 * @param seed the seed of the random SKUs and quantities
 * @param jar the repackaged sample application jar the instances run
 * @param keepFiles whether to keep the logs and stock files after a successful run
 * @param keepRunning whether to leave the instances running after the load, until Ctrl-C
 */
public record DemoOptions(boolean locking, int requests, int skus, int initialStock, int concurrency, long seed,
		Path jar, boolean keepFiles, boolean keepRunning) {

	/** Usage text for {@code --help}. */
	public static final String USAGE = """
			Usage: ./demo.sh [--no-lock] [--requests=3000] [--skus=4] [--stock=400] [--concurrency=32]
			                 [--seed=42] [--keep-running] [--keep-files] [--skip-build]
			  --no-lock       run the instances with zklock.enabled=false (the control run)
			  --requests=N    reservations to send, round-robin over three instances
			  --skus=N        SKUs to spread them over
			  --stock=N       starting stock of every SKU
			  --concurrency=N reservations in flight at once
			  --seed=N        seed of the random SKUs and quantities (1 to 3 units)
			  --keep-running  leave the instances running after the load, to explore their live
			                  lock pages (the URLs are printed); Ctrl-C stops them
			  --keep-files    keep the instance logs and stock files of a successful run
			  --skip-build    (demo.sh) do not run the Maven build first
			""";

	/**
	 * Parses the options; unknown options fail.
	 * @param args the command-line arguments
	 * @return the options
	 * @throws IllegalArgumentException on an unknown option or a bad value
	 */
	public static DemoOptions parse(String... args) {
		boolean locking = true;
		int requests = 3000;
		int skus = 4;
		int initialStock = 400;
		int concurrency = 32;
		long seed = 42;
		Path jar = Path.of("sample-app", "target", "zklock-sample-app.jar");
		boolean keepFiles = false;
		boolean keepRunning = false;
		for (String arg : args) {
			String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
			String value = arg.contains("=") ? arg.substring(arg.indexOf('=') + 1) : null;
			switch (name) {
				case "--no-lock" -> locking = false;
				case "--keep-files" -> keepFiles = true;
				case "--keep-running" -> keepRunning = true;
				case "--requests" -> requests = positive(name, value);
				case "--skus" -> skus = positive(name, value);
				case "--stock" -> initialStock = positive(name, value);
				case "--concurrency" -> concurrency = positive(name, value);
				case "--seed" -> seed = Long.parseLong(required(name, value));
				case "--jar" -> jar = Path.of(required(name, value));
				default -> throw new IllegalArgumentException("Unknown option '" + arg + "'\n" + USAGE);
			}
		}
		return new DemoOptions(locking, requests, skus, initialStock, concurrency, seed, jar, keepFiles,
				keepRunning);
	}

	private static int positive(String name, String value) {
		try {
			int number = Integer.parseInt(required(name, value));
			if (number > 0) {
				return number;
			}
		}
		catch (NumberFormatException ex) {
			// reported below
		}
		throw new IllegalArgumentException("Option " + name + " needs a positive whole number, was '" + value + "'");
	}

	private static String required(String name, String value) {
		if (value == null || value.isBlank()) {
			throw new IllegalArgumentException("Option " + name + " needs a value: " + name + "=<value>");
		}
		return value;
	}

}
