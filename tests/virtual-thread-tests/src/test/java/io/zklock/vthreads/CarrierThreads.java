package io.zklock.vthreads;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.reflect.Method;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;
import java.util.regex.Pattern;

/**
 * Samples how many platform (carrier) threads the virtual-thread scheduler has, every
 * millisecond on a platform thread of its own, and keeps the peak. On JDK 24+ the count is the
 * scheduler's pool size ({@code jdk.management.VirtualThreadSchedulerMXBean.getPoolSize()});
 * before that, the live threads named like the default scheduler's workers
 * ({@code ForkJoinPool-N-worker-M}).
 */
final class CarrierThreads implements AutoCloseable {

	private static final Pattern CARRIER_NAME = Pattern.compile("ForkJoinPool-\\d+-worker-\\d+");

	private final IntSupplier poolSize;

	private final String source;

	private final AtomicInteger peak = new AtomicInteger();

	private final Thread sampler;

	private volatile boolean running = true;

	private CarrierThreads() {
		IntSupplier mxBean = schedulerMxBean();
		this.poolSize = (mxBean != null) ? mxBean : CarrierThreads::namedCarriers;
		this.source = (mxBean != null) ? "VirtualThreadSchedulerMXBean.getPoolSize()"
				: "live threads named ForkJoinPool-N-worker-M";
		this.sampler = Thread.ofPlatform().daemon().name("carrier-sampler").unstarted(this::sample);
	}

	static CarrierThreads start() {
		CarrierThreads carriers = new CarrierThreads();
		carriers.sampler.start();
		return carriers;
	}

	/** The most carrier threads seen at once. */
	int peak() {
		return Math.max(this.peak.get(), this.poolSize.getAsInt());
	}

	/** How the carriers are counted. */
	String source() {
		return this.source;
	}

	/** The scheduler's target parallelism (the number of carriers it runs without compensating). */
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
			Class<?> type = Class.forName("jdk.management.VirtualThreadSchedulerMXBean");
			Object bean = ManagementFactory.getPlatformMXBean(type.asSubclass(java.lang.management.PlatformManagedObject.class));
			Method poolSize = type.getMethod("getPoolSize");
			return () -> {
				try {
					return (int) poolSize.invoke(bean);
				}
				catch (ReflectiveOperationException ex) {
					throw new IllegalStateException(ex);
				}
			};
		}
		catch (ReflectiveOperationException | IllegalArgumentException ex) {
			return null;
		}
	}

	private static int namedCarriers() {
		var threads = ManagementFactory.getThreadMXBean();
		int count = 0;
		for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds(), 0)) {
			if (info != null && CARRIER_NAME.matcher(info.getThreadName()).matches()) {
				count++;
			}
		}
		return count;
	}

}
