package io.zklock.fault.ensemble;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A ZooKeeper ensemble on loopback whose members a test can crash and restart (and, when
 * they run as processes, pause). Members are numbered from 0.
 */
public interface Ensemble extends AutoCloseable {

	/** What runs, for the figures: version and kind of servers. */
	String description();

	/** The client ports of the members, by member number. */
	List<Integer> clientPorts();

	/** The connect string naming every member. */
	default String connectString() {
		return clientPorts().stream().map((port) -> "127.0.0.1:" + port).collect(Collectors.joining(","));
	}

	default int size() {
		return clientPorts().size();
	}

	/** The member number of a client port, or -1. */
	default int memberOfPort(int port) {
		return clientPorts().indexOf(port);
	}

	/** Crashes a member. */
	void kill(int member) throws Exception;

	/** Starts a crashed member again, with its data. */
	void restart(int member) throws Exception;

	boolean isRunning(int member);

	/** Whether {@link #pause(int)} works: only for members that are processes. */
	default boolean canPause() {
		return false;
	}

	/** Freezes a member with {@code SIGSTOP}. */
	default void pause(int member) {
		throw new UnsupportedOperationException(description() + " cannot pause a member");
	}

	/** Lets a paused member run on. */
	default void resume(int member) {
		throw new UnsupportedOperationException(description() + " cannot pause a member");
	}

	default boolean isPaused(int member) {
		return false;
	}

	/** Stops every member and deletes their data. */
	@Override
	void close();

}
