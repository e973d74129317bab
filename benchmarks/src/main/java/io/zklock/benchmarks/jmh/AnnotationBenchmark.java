package io.zklock.benchmarks.jmh;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.springframework.context.ConfigurableApplicationContext;

import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockMode;

/**
 * Scenario 2: a {@code @DistributedLock} method against the same work called plainly (no
 * lock), against the same lock taken in code ({@code executeLocked}, no aspect), and, to
 * isolate the interceptor's own cost, against the annotated method over an in-memory lock.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class AnnotationBenchmark {

	private static final long ORDER_ID = 42;

	/**
	 * A call on the plain bean, with no lock.
	 * @param app the application over ZooKeeper
	 * @return the result, consumed by JMH
	 */
	@Benchmark
	public long plainCall(ZooKeeperApplication app) {
		return app.plain.ship(ORDER_ID);
	}

	/**
	 * A call on the annotated bean: lock {@code orders/42} on ZooKeeper, run, release.
	 * @param app the application over ZooKeeper
	 * @return the result, consumed by JMH
	 */
	@Benchmark
	public long annotatedCall(ZooKeeperApplication app) {
		return app.locked.ship(ORDER_ID);
	}

	/**
	 * The same lock taken in code around the plain bean.
	 * @param app the application over ZooKeeper
	 * @return the result, consumed by JMH
	 */
	@Benchmark
	public long programmaticCall(ZooKeeperApplication app) {
		return app.locks.executeLocked("orders/" + ORDER_ID, LockMode.EXCLUSIVE, Duration.ofSeconds(10),
				(handle) -> app.plain.ship(ORDER_ID));
	}

	/**
	 * A call on the annotated bean whose lock is in memory: the interceptor's cost alone.
	 * @param app the application with in-memory locks
	 * @return the result, consumed by JMH
	 */
	@Benchmark
	public long annotatedCallInMemoryLock(InMemoryApplication app) {
		return app.locked.ship(ORDER_ID);
	}

	/** The application over ZooKeeper. */
	@State(Scope.Benchmark)
	public static class ZooKeeperApplication {

		ConfigurableApplicationContext context;

		Orders plain;

		Orders locked;

		ILockByCurator locks;

		/**
		 * Starts the application.
		 * @param server the server
		 */
		@Setup(Level.Trial)
		public void start(BenchmarkServer server) {
			this.context = AnnotationApplication.start(server.connectString());
			this.plain = this.context.getBean("plainOrders", Orders.class);
			this.locked = this.context.getBean(LockedOrders.class);
			this.locks = this.context.getBean(ILockByCurator.class);
		}

		/** Stops the application. */
		@TearDown(Level.Trial)
		public void stop() {
			this.context.close();
		}

	}

	/** The application with in-memory locks. */
	@State(Scope.Benchmark)
	public static class InMemoryApplication {

		ConfigurableApplicationContext context;

		Orders locked;

		private InMemoryLocks inMemoryLocks;

		/**
		 * Starts the application and checks that an annotated call reaches the in-memory lock.
		 * @param server the server (zklock's client still connects at start-up)
		 */
		@Setup(Level.Trial)
		public void start(BenchmarkServer server) {
			this.context = AnnotationApplication.start(server.connectString(), InMemoryLockConfiguration.class);
			this.locked = this.context.getBean(LockedOrders.class);
			this.inMemoryLocks = this.context.getBean(InMemoryLocks.class);
			this.locked.ship(ORDER_ID);
			if (this.inMemoryLocks.acquisitions() != 1) {
				throw new IllegalStateException("The @DistributedLock interceptor did not take its lock through "
						+ "ILockByCurator.tryAcquire(LockRequest); update InMemoryLocks");
			}
		}

		/** Stops the application. */
		@TearDown(Level.Trial)
		public void stop() {
			this.context.close();
		}

	}

}
