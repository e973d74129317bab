package io.zklock.lock.internal;

import java.net.URL;
import java.security.CodeSource;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.Objects;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * Where a lock was acquired: the first frame of the acquiring thread's stack outside zklock's own
 * library code (zklock-core's classes, told by where they were loaded from, so that code of the
 * same packages elsewhere, tests say, counts as a caller; zklock's Spring packages), Spring's proxies and interceptors, reactive and coroutine plumbing, Curator and the
 * JDK. Found with {@link StackWalker}, which stops at that frame (about 2 µs); recorded only
 * while the engine's {@code LeakDetection} asks for it. Thread-safe (stateless).
 */
final class AcquisitionSite {

	/**
	 * Reflection frames are shown: they are the JDK's, machinery anyway, and leaving the walker's
	 * own filter out saves a third of the walk; the first batch holds the frames a direct call
	 * from application code passes through.
	 */
	private static final StackWalker walker = StackWalker.getInstance(
			EnumSet.of(StackWalker.Option.RETAIN_CLASS_REFERENCE, StackWalker.Option.SHOW_REFLECT_FRAMES), 16);

	/** Where zklock-core's classes come from: its own frames are machinery, its users' (tests too) are not. */
	private static final @Nullable URL CORE = location(AcquisitionSite.class);

	/** Packages whose frames are machinery, not the caller's code. */
	private static final Set<String> MACHINERY = Set.of("io.zklock.annotation.",
			"io.zklock.interceptor.", "io.zklock.autoconfigure.", "io.zklock.integration.", "io.zklock.test.",
			"org.springframework.", "org.apache.curator.", "org.apache.zookeeper.", "reactor.", "kotlin.",
			"kotlinx.", "java.", "javax.", "jdk.", "sun.", "com.sun.");

	private static final int MAX_DEPTH = 128;

	/** Whether a class's frames are machinery: decided once per class (its code source is a native call). */
	private static final ClassValue<Boolean> machinery = new ClassValue<>() {

		@Override
		protected Boolean computeValue(Class<?> type) {
			return isMachinery(type);
		}

	};

	private AcquisitionSite() {
	}

	private static @Nullable URL location(Class<?> type) {
		CodeSource source = type.getProtectionDomain().getCodeSource();
		return (source != null) ? source.getLocation() : null;
	}

	/** The caller's frame, or {@code null} if none is found within a deep stack. */
	static @Nullable StackTraceElement capture() {
		return walker.walk((frames) -> {
			Iterator<StackWalker.StackFrame> walk = frames.iterator();
			for (int depth = 0; depth < MAX_DEPTH && walk.hasNext(); depth++) {
				StackWalker.StackFrame frame = walk.next();
				if (!machinery.get(frame.getDeclaringClass())) {
					return frame.toStackTraceElement();
				}
			}
			return null;
		});
	}

	private static boolean isMachinery(Class<?> type) {
		String className = type.getName();
		if (className.startsWith("io.zklock.lock.")) {
			return Objects.equals(location(type), CORE);
		}
		if (className.contains("$$SpringCGLIB$$") || className.startsWith("jdk.proxy")) {
			return true;
		}
		for (String prefix : MACHINERY) {
			if (className.startsWith(prefix)) {
				return true;
			}
		}
		return false;
	}

}
