package io.zklock.benchmarks.server;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The CPU time and allocated bytes of every live Java thread of this JVM at one moment, from
 * HotSpot's {@code com.sun.management.ThreadMXBean} (per-thread CPU clocks, nanosecond
 * resolution; the bytes each thread allocated on the heap). Two snapshots around a window of
 * calls that one library makes on one thread give what that library cost in the window: the
 * calling thread's CPU, and that of the library's own threads (a ZooKeeper client's I/O and
 * event threads, Curator's, zklock's, Netty's event loops), while the idle threads of the other
 * libraries of the same JVM add next to nothing. Threads that are not Java threads (the garbage
 * collector's, the JIT compilers') are not in it: the process's CPU time ({@link ProcessCpu})
 * has them. A thread that ended within the window loses its share.
 */
public final class ThreadCpu {

	private static final com.sun.management.ThreadMXBean THREADS = threads();

	private final long[] ids;

	private final Map<Long, long[]> byThread;

	private final long callerId;

	private ThreadCpu(long[] ids, Map<Long, long[]> byThread, long callerId) {
		this.ids = ids;
		this.byThread = byThread;
		this.callerId = callerId;
	}

	private static com.sun.management.ThreadMXBean threads() {
		if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean threads
				&& threads.isThreadCpuTimeSupported()) {
			if (!threads.isThreadCpuTimeEnabled()) {
				threads.setThreadCpuTimeEnabled(true);
			}
			if (threads.isThreadAllocatedMemorySupported() && !threads.isThreadAllocatedMemoryEnabled()) {
				threads.setThreadAllocatedMemoryEnabled(true);
			}
			return threads;
		}
		return null;
	}

	/**
	 * Whether this JVM counts CPU time per thread.
	 * @return {@code false} if snapshots are empty
	 */
	public static boolean supported() {
		return THREADS != null;
	}

	/**
	 * Takes a snapshot of every live thread, the calling one marked as the caller.
	 * @return the snapshot (empty if this JVM does not count per thread)
	 */
	public static ThreadCpu now() {
		long caller = Thread.currentThread().getId();
		if (THREADS == null) {
			return new ThreadCpu(new long[0], Map.of(), caller);
		}
		long[] ids = THREADS.getAllThreadIds();
		long[] cpu = THREADS.getThreadCpuTime(ids);
		long[] allocated = THREADS.isThreadAllocatedMemoryEnabled() ? THREADS.getThreadAllocatedBytes(ids)
				: new long[ids.length];
		Map<Long, long[]> byThread = new HashMap<>(ids.length * 2);
		for (int i = 0; i < ids.length; i++) {
			if (cpu[i] >= 0) {
				byThread.put(ids[i], new long[] { cpu[i], Math.max(0, allocated[i]) });
			}
		}
		return new ThreadCpu(ids, byThread, caller);
	}

	/**
	 * What the threads did from an earlier snapshot to this one.
	 * @param before the earlier snapshot
	 * @return CPU of all threads and of the caller, and bytes allocated by all threads
	 */
	public Usage since(ThreadCpu before) {
		long all = 0;
		long caller = 0;
		long allocated = 0;
		for (long id : this.ids) {
			long[] now = this.byThread.get(id);
			if (now == null) {
				continue;
			}
			long[] then = before.byThread.getOrDefault(id, new long[2]);
			long cpu = Math.max(0, now[0] - then[0]);
			all += cpu;
			allocated += Math.max(0, now[1] - then[1]);
			if (id == this.callerId) {
				caller += cpu;
			}
		}
		return new Usage(all, caller, allocated);
	}

	/**
	 * The CPU time each thread used from an earlier snapshot to this one, added up by thread name
	 * with its digits taken out (so {@code "main-SendThread(127.0.0.1:4711)"} and the same thread
	 * of another client count together): which of a library's threads do its work.
	 * @param before the earlier snapshot
	 * @return nanoseconds by name, the caller's under {@code "(caller)"}
	 */
	public Map<String, Long> byName(ThreadCpu before) {
		Map<String, Long> names = new TreeMap<>();
		Map<Long, String> threadNames = new HashMap<>();
		for (ThreadInfo info : THREADS.getThreadInfo(this.ids)) {
			if (info != null) {
				threadNames.put(info.getThreadId(), info.getThreadName().replaceAll("[0-9]+", "N"));
			}
		}
		for (long id : this.ids) {
			long[] now = this.byThread.get(id);
			if (now == null) {
				continue;
			}
			long cpu = Math.max(0, now[0] - before.byThread.getOrDefault(id, new long[2])[0]);
			String name = (id == this.callerId) ? "(caller)" : threadNames.getOrDefault(id, "(ended)");
			names.merge(name, cpu, Long::sum);
		}
		return names;
	}

	/**
	 * What the Java threads of this JVM did in a window.
	 * @param threadsCpuNanos CPU time of every Java thread, the caller's included
	 * @param callerCpuNanos CPU time of the thread that took both snapshots
	 * @param allocatedBytes bytes every Java thread allocated on the heap
	 */
	public record Usage(long threadsCpuNanos, long callerCpuNanos, long allocatedBytes) {
	}

}
