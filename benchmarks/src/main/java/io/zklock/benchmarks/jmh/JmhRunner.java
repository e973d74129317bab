package io.zklock.benchmarks.jmh;

import java.util.Collection;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import io.zklock.benchmarks.Scale;

/**
 * Runs JMH benchmarks of this module from the driver, one fork per benchmark and parameter
 * set, with the iteration counts of a {@link Scale}.
 */
public final class JmhRunner {

	private final Scale scale;

	/**
	 * Creates a runner.
	 * @param scale the iteration counts and times
	 */
	public JmhRunner(Scale scale) {
		this.scale = scale;
	}

	/**
	 * Runs the benchmarks of one class.
	 * @param benchmarkClass the class with {@code @Benchmark} methods
	 * @param connectString the server to use, or an empty string to have every fork start an
	 * in-process server of its own
	 * @return the results, one per benchmark method and parameter set
	 * @throws RunnerException if a benchmark fails
	 */
	public Collection<RunResult> run(Class<?> benchmarkClass, String connectString) throws RunnerException {
		ChainedOptionsBuilder options = new OptionsBuilder().include("^" + benchmarkClass.getName().replace(".", "\\.") + "\\.")
			.forks(1)
			.warmupIterations(this.scale.jmhWarmupIterations())
			.warmupTime(millis(this.scale.jmhWarmupTime().toMillis()))
			.measurementIterations(this.scale.jmhIterations())
			.measurementTime(millis(this.scale.jmhIterationTime().toMillis()))
			.param("connectString", connectString)
			.param("maxWait", this.scale.jmhBoundedWait() ? new String[] { UncontendedLockBenchmark.UNBOUNDED,
					UncontendedLockBenchmark.BOUNDED } : new String[] { UncontendedLockBenchmark.UNBOUNDED })
			.jvmArgsAppend("-Xms1g", "-Xmx1g")
			.shouldFailOnError(true)
			.verbosity(this.scale.isQuick() ? VerboseMode.SILENT : VerboseMode.NORMAL);
		return new Runner(options.build()).run();
	}

	private static TimeValue millis(long millis) {
		return new TimeValue(millis, TimeUnit.MILLISECONDS);
	}

}
