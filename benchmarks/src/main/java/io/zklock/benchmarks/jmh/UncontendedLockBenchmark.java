package io.zklock.benchmarks.jmh;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.springframework.boot.convert.DurationStyle;

import io.zklock.benchmarks.client.Library;
import io.zklock.benchmarks.client.LockClient;
import io.zklock.benchmarks.client.ZkClient;
import io.zklock.lock.LockMode;

/**
 * Scenario 1: one thread acquires and releases one exclusive lock that nobody else wants, in
 * a loop; sampled per call, so that the run gives the mean (hence throughput) and the
 * percentiles. Once with an unbounded wait ({@code acquire()}/{@code lock()}), once with a
 * bounded one ({@code tryAcquire}/{@code acquire(time, unit)}/{@code tryLock(time, unit)}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class UncontendedLockBenchmark {

	/** The ZooKeeper path under which the libraries' lock roots are made. */
	public static final String ROOT = "/bench/uncontended";

	/** The lock path. */
	public static final String LOCK_PATH = "solo";

	/** The library, by {@link Library#id()}. */
	@Param({ "zklock", "curator", "spring-integration" })
	public String library;

	/** {@value #UNBOUNDED}, or the longest wait as a duration such as {@code "10s"}. */
	@Param({ UNBOUNDED, BOUNDED })
	public String maxWait;

	/** The {@code maxWait} parameter of the unbounded wait. */
	public static final String UNBOUNDED = "unbounded";

	/** The {@code maxWait} parameter of the bounded wait. */
	public static final String BOUNDED = "10s";

	private Duration waitDuration;

	private ZkClient session;

	private LockClient locks;

	/**
	 * Connects and opens the library's locks.
	 * @param server the server
	 * @throws Exception if connecting fails
	 */
	@Setup(Level.Trial)
	public void open(BenchmarkServer server) throws Exception {
		this.session = ZkClient.connect(server.connectString());
		this.locks = Library.ofId(this.library).open(this.session, ROOT);
		this.waitDuration = UNBOUNDED.equals(this.maxWait) ? null : DurationStyle.detectAndParse(this.maxWait);
	}

	/**
	 * One cycle.
	 * @return the nanoseconds the acquire took (returned so that JMH keeps the call)
	 * @throws Exception if the library fails
	 */
	@Benchmark
	public long acquireRelease() throws Exception {
		return cycle(this.locks, this.waitDuration);
	}

	/**
	 * One uncontended cycle.
	 * @param locks the library's locks
	 * @param wait the longest wait, or {@code null} for an unbounded one
	 * @return the nanoseconds from the acquire call until it returned with the lock (the
	 * acquire latency, time to grant); the release is not in it
	 * @throws Exception if the library fails
	 */
	public static long cycle(LockClient locks, Duration wait) throws Exception {
		long start = System.nanoTime();
		LockClient.Held held = (wait != null) ? locks.lock(LOCK_PATH, LockMode.EXCLUSIVE, wait)
				: locks.lock(LOCK_PATH, LockMode.EXCLUSIVE);
		long acquired = System.nanoTime() - start;
		held.unlock();
		return acquired;
	}

	/** Closes the locks and the session. */
	@TearDown(Level.Trial)
	public void close() {
		this.locks.close();
		this.session.close();
	}

}
