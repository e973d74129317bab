package io.zklock.benchmarks.client;

import java.util.Locale;


/**
 * The lock libraries under comparison. Each gets its own lock root, so that runs of different
 * libraries on one server never meet.
 */
public enum Library {

	/** zklock's {@code ExclusiveLockByCurator} / {@code SharedLockByCurator}, handle-based API. */
	ZKLOCK("zklock", "zklock"),

	/**
	 * zklock as {@link #ZKLOCK}, with local handoff on at its default bounds: a held node
	 * is handed to the client's next waiting thread with one write.
	 */
	ZKLOCK_LOCAL_HANDOFF("zklock, local handoff", "zklock-local-handoff"),

	/** Curator's {@code InterProcessMutex} (exclusive) and {@code InterProcessReadWriteLock} (read/write), used directly. */
	CURATOR("Curator", "curator"),

	/** Spring Integration's {@code ZookeeperLockRegistry} (exclusive only). */
	SPRING_INTEGRATION("Spring Integration", "spring-integration");

	private final String displayName;

	private final String id;

	Library(String displayName, String id) {
		this.displayName = displayName;
		this.id = id;
	}

	/**
	 * The name in reports.
	 * @return such as {@code "Curator"}
	 */
	public String displayName() {
		return this.displayName;
	}

	/**
	 * The id used in JMH parameters and lock roots.
	 * @return such as {@code "spring-integration"}
	 */
	public String id() {
		return this.id;
	}

	/**
	 * Whether the library has read/write locks.
	 * @return {@code false} for Spring Integration, whose registry has exclusive locks only
	 */
	public boolean supportsReadWrite() {
		return this != SPRING_INTEGRATION;
	}

	/**
	 * Finds a library by its id.
	 * @param id an id such as {@code "curator"}
	 * @return the library
	 * @throws IllegalArgumentException if no library has that id
	 */
	public static Library ofId(String id) {
		for (Library library : values()) {
			if (library.id.equals(id.toLowerCase(Locale.ROOT))) {
				return library;
			}
		}
		throw new IllegalArgumentException("Unknown library '" + id + "'; use zklock, zklock-local-handoff, curator or spring-integration");
	}

	/**
	 * Opens this library's locks over a client.
	 * @param client the session the locks use; closed by the caller after the locks
	 * @param root the ZooKeeper path under which this run's lock paths live, such as
	 * {@code "/bench/hot"}; the library's id is appended
	 * @return the library's locks
	 */
	public LockClient open(ZkClient client, String root) {
		String libraryRoot = root + "/" + this.id;
		return switch (this) {
			case ZKLOCK -> new ZklockLockClient(client, libraryRoot, false);
			case ZKLOCK_LOCAL_HANDOFF -> new ZklockLockClient(client, libraryRoot, true);
			case CURATOR -> new CuratorLockClient(client, libraryRoot);
			case SPRING_INTEGRATION -> new SpringIntegrationLockClient(client, libraryRoot);
		};
	}

}
