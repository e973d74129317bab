package io.zklock.benchmarks.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;

import io.zklock.lock.LockMode;

/**
 * zklock as another build of it has it, in the same JVM as this build's, for a before/after
 * comparison in one interleaved run on one machine: zklock-core's classes are loaded from that
 * build's jar by a class loader of their own (child-first for {@code io.zklock.lock}, Curator,
 * ZooKeeper and SLF4J from this JVM's class path), and called as {@link ZklockLockClient} calls this
 * build's: one {@code LockEngine} per client, call-owned handles from
 * {@code ExclusiveLockByCurator.acquire(path, mode)}, local handoff off. Set by
 * {@code BENCH_BASELINE=<zklock-core jar>} for {@code benchmarks/run.sh} (the system property
 * {@value #PROPERTY}); scenario 9 and the gate then run it beside this build's zklock.
 */
public final class BaselineZklockClient implements LockClient {

	/** The system property naming the other build's zklock-core jar. */
	public static final String PROPERTY = "bench.baseline";

	/** The name in reports. */
	public static final String DISPLAY_NAME = "zklock (baseline build)";

	private static volatile ClassLoader loader;

	private final Object engine;

	private final Object locks;

	private final Object exclusive;

	private final MethodHandle acquire;

	private final MethodHandle release;

	private final MethodHandle close;

	private final String root;

	private BaselineZklockClient(CuratorFramework curator, String root) throws Throwable {
		ClassLoader classes = loader();
		MethodHandles.Lookup lookup = MethodHandles.publicLookup();
		Class<?> engineType = classes.loadClass("io.zklock.lock.LockEngine");
		Class<?> handoffType = classes.loadClass("io.zklock.lock.LocalHandoff");
		Class<?> locksType = classes.loadClass("io.zklock.lock.ExclusiveLockByCurator");
		Class<?> modeType = classes.loadClass("io.zklock.lock.LockMode");
		Class<?> handleType = classes.loadClass("io.zklock.lock.LockHandle");
		Object off = lookup.findStatic(handoffType, "off", MethodType.methodType(handoffType)).invoke();
		this.engine = lookup.findConstructor(engineType,
				MethodType.methodType(void.class, CuratorFramework.class, String.class, byte[].class, handoffType))
			.invoke(curator, root, new byte[0], off);
		this.locks = lookup.findConstructor(locksType, MethodType.methodType(void.class, engineType)).invoke(this.engine);
		this.exclusive = lookup.findStatic(modeType, "valueOf", MethodType.methodType(modeType, String.class))
			.invoke(LockMode.EXCLUSIVE.name());
		this.acquire = lookup.findVirtual(locksType, "acquire", MethodType.methodType(handleType, String.class, modeType));
		this.release = lookup.findVirtual(handleType, "release",
				MethodType.methodType(classes.loadClass("io.zklock.lock.ReleaseResult")));
		this.close = lookup.findVirtual(engineType, "close", MethodType.methodType(void.class));
		this.root = root;
	}

	/**
	 * Whether a baseline build is set.
	 * @return {@code true} if {@value #PROPERTY} names a jar
	 */
	public static boolean configured() {
		String jar = System.getProperty(PROPERTY, "");
		return !jar.isBlank();
	}

	/**
	 * Opens the baseline build's locks over a session.
	 * @param session the session; closed by the caller after the locks
	 * @param root the ZooKeeper path under which the lock root is made; {@code /zklock-baseline}
	 * is appended
	 * @return the locks
	 * @throws IllegalStateException if the jar is missing or is not a zklock-core build
	 */
	public static LockClient open(ZkClient session, String root) {
		try {
			return new BaselineZklockClient(session.curator(), root + "/zklock-baseline");
		}
		catch (RuntimeException | Error ex) {
			throw ex;
		}
		catch (Throwable ex) {
			throw new IllegalStateException("Could not open the baseline zklock build "
					+ System.getProperty(PROPERTY) + ": " + ex, ex);
		}
	}

	private static ClassLoader loader() {
		ClassLoader classes = loader;
		if (classes == null) {
			synchronized (BaselineZklockClient.class) {
				classes = loader;
				if (classes == null) {
					Path jar = Path.of(System.getProperty(PROPERTY, ""));
					if (!Files.isRegularFile(jar)) {
						throw new IllegalStateException("The baseline zklock-core jar " + jar + " (" + PROPERTY
								+ ") does not exist; build it first (./mvnw -pl lock-core package in its checkout)");
					}
					try {
						classes = new CoreFirst(new URL[] { jar.toUri().toURL() }, BaselineZklockClient.class.getClassLoader());
					}
					catch (IOException ex) {
						throw new UncheckedIOException(ex);
					}
					loader = classes;
				}
			}
		}
		return classes;
	}

	@Override
	public Held lock(String lockPath, LockMode mode) throws Exception {
		if (mode != LockMode.EXCLUSIVE) {
			throw new UnsupportedOperationException("The baseline build is measured with exclusive locks only");
		}
		Object handle;
		try {
			handle = this.acquire.invoke(this.locks, lockPath, this.exclusive);
		}
		catch (Exception | Error ex) {
			throw ex;
		}
		catch (Throwable ex) {
			throw new IllegalStateException(ex);
		}
		return () -> {
			try {
				this.release.invoke(handle);
			}
			catch (Exception | Error ex) {
				throw ex;
			}
			catch (Throwable ex) {
				throw new IllegalStateException(ex);
			}
		};
	}

	/** As {@link #lock(String, LockMode)}: the baseline is measured with unbounded waits only. */
	@Override
	public Held lock(String lockPath, LockMode mode, Duration wait) throws Exception {
		return lock(lockPath, mode);
	}

	@Override
	public String zooKeeperPath(String lockPath) {
		return this.root + "/" + lockPath;
	}

	@Override
	public void close() {
		try {
			this.close.invoke(this.engine);
		}
		catch (RuntimeException | Error ex) {
			throw ex;
		}
		catch (Throwable ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** Loads {@code io.zklock.lock} from the jar first; everything else from the parent. */
	private static final class CoreFirst extends URLClassLoader {

		CoreFirst(URL[] urls, ClassLoader parent) {
			super(urls, parent);
		}

		@Override
		protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
			if (!name.startsWith("io.zklock.lock.")) {
				return super.loadClass(name, resolve);
			}
			synchronized (getClassLoadingLock(name)) {
				Class<?> type = findLoadedClass(name);
				if (type == null) {
					type = findClass(name);
				}
				if (resolve) {
					resolveClass(type);
				}
				return type;
			}
		}

	}

}
