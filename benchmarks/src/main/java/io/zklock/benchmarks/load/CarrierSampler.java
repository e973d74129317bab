package io.zklock.benchmarks.load;

import java.lang.management.ManagementFactory;
import java.lang.management.PlatformManagedObject;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;
import java.util.regex.Pattern;

/**
 * Samples how many platform (carrier) threads the virtual-thread scheduler has, every
 * millisecond on a daemon thread of its own, and keeps the peak: on JDK 24+ the scheduler's pool
 * size ({@code jdk.management.VirtualThreadSchedulerMXBean}, looked up by reflection because this
 * module compiles for Java 17), before that the live threads named like the default scheduler's
 * workers ({@code ForkJoinPool-N-worker-M}). A scheduler that never compensates for a pinned or
 * blocked carrier stays at its parallelism (the number of CPUs).
 */
final class CarrierSampler implements AutoCloseable {

	private static final Pattern CARRIER_NAME = Pattern.compile("ForkJoinPool-\\d+-worker-\\d+");

	private final IntSupplier poolSize;

	private final AtomicInteger peak = new AtomicInteger();

	private final Thread sampler;

	private volatile boolean running = true;

	private CarrierSampler() {
		IntSupplier mxBean = schedulerMxBean();
		this.poolSize = (mxBean != null) ? mxBean : CarrierSampler::namedCarriers;
		this.sampler = new Thread(this::sample, "bench-carrier-sampler");
		this.sampler.setDaemon(true);
	}

	/**
	 * Starts sampling.
	 * @return the running sampler
	 */
	static CarrierSampler start() {
		CarrierSampler sampler = new CarrierSampler();
		sampler.sampler.start();
		return sampler;
	}

	/**
	 * The most carriers seen at once.
	 * @return the peak
	 */
	int peak() {
		return Math.max(this.peak.get(), this.poolSize.getAsInt());
	}

	/**
	 * The scheduler's parallelism: the carriers it runs without compensating.
	 * @return {@code jdk.virtualThreadScheduler.parallelism}, else the number of CPUs
	 */
	static int parallelism() {
		String configured = System.getProperty("jdk.virtualThreadScheduler.parallelism");
		return (configured != null) ? Integer.parseInt(configured) : Runtime.getRuntime().availableProcessors();
	}

	private void sample() {
		while (this.running) {
			this.peak.accumulateAndGet(this.poolSize.getAsInt(), Math::max);
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
		}
	}

	@Override
	public void close() throws InterruptedException {
		this.running = false;
		this.sampler.join();
	}

	private static IntSupplier schedulerMxBean() {
		try {
			Class<? extends PlatformManagedObject> type = Class.forName("jdk.management.VirtualThreadSchedulerMXBean")
				.asSubclass(PlatformManagedObject.class);
			Object bean = ManagementFactory.getPlatformMXBean(type);
			Method poolSize = type.getMethod("getPoolSize");
			return () -> {
				try {
					return (int) poolSize.invoke(bean);
				}
				catch (ReflectiveOperationException ex) {
					throw new IllegalStateException("Could not read the scheduler's pool size", ex);
				}
			};
		}
		catch (ReflectiveOperationException | IllegalArgumentException ex) {
			return null;
		}
	}

	private static int namedCarriers() {
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		int count = 0;
		for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds(), 0)) {
			if (info != null && CARRIER_NAME.matcher(info.getThreadName()).matches()) {
				count++;
			}
		}
		return count;
	}

}
