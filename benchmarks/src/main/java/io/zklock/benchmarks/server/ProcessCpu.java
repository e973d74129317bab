package io.zklock.benchmarks.server;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;

/**
 * CPU time used by processes, from Linux's {@code /proc/<pid>/stat} (user + system time, in
 * clock ticks of 10 ms), and by this JVM (its own count, in nanoseconds).
 */
public final class ProcessCpu {

	/** Linux's USER_HZ on x86 and arm64: {@code /proc} counts CPU time in ticks of 10 ms. */
	private static final long NANOS_PER_TICK = 10_000_000L;

	private ProcessCpu() {
	}

	/**
	 * The CPU time of some processes, summed.
	 * @param pids the process ids
	 * @return nanoseconds of user and system time, or -1 if one cannot be read (not Linux, or gone)
	 */
	public static long nanos(Collection<Long> pids) {
		long total = 0;
		for (long pid : pids) {
			try {
				String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
				// the fields after the command name, which is in parentheses and may hold spaces
				String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
				// utime and stime are fields 14 and 15 of the line, 12 and 13 after the name
				total += (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * NANOS_PER_TICK;
			}
			catch (IOException | RuntimeException ex) {
				return -1;
			}
		}
		return total;
	}

	/**
	 * The CPU time of this JVM, all threads.
	 * @return nanoseconds, or -1 if the JVM does not say
	 */
	public static long self() {
		if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
			return os.getProcessCpuTime();
		}
		return -1;
	}

}
