package io.zklock.autoconfigure.leadership;

import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;

import io.zklock.leadership.RevocationReason;

/**
 * When the client's connection was last suspended (or lost, or left for a read-only server), on
 * {@link System#nanoTime()}, so that the time from a suspension to the stopped leader-scoped work
 * counts from the suspension itself, not from when a listener heard of the revocation. Follows
 * the client from creation until {@link #close()}. Thread-safe.
 */
final class RevocationClock implements ConnectionStateListener, AutoCloseable {

	private final CuratorFramework client;

	/** The last suspension, 0 if none yet. */
	private volatile long suspendedAt;

	RevocationClock(CuratorFramework client) {
		this.client = client;
		client.getConnectionStateListenable().addListener(this);
	}

	@Override
	public void stateChanged(CuratorFramework client, ConnectionState state) {
		if (!state.isConnected() || state == ConnectionState.READ_ONLY) {
			long now = System.nanoTime();
			this.suspendedAt = (now != 0) ? now : 1;
		}
	}

	/**
	 * How long ago a revocation heard of now was noticed.
	 * @param reason why the term was revoked
	 * @param grantedAt when the term was granted (or resumed), on {@link System#nanoTime()}
	 * @param now the time it was heard of, on {@link System#nanoTime()}
	 * @return the time since the suspension that caused it, for a suspension after the grant; zero
	 * otherwise
	 */
	Duration sinceRevocation(RevocationReason reason, long grantedAt, long now) {
		long suspended = this.suspendedAt;
		boolean byConnection = reason == RevocationReason.CONNECTION_SUSPENDED || reason == RevocationReason.SESSION_LOST;
		if (byConnection && suspended != 0 && suspended - grantedAt > 0 && now - suspended >= 0) {
			return Duration.ofNanos(now - suspended);
		}
		return Duration.ZERO;
	}

	@Override
	public void close() {
		this.client.getConnectionStateListenable().removeListener(this);
	}

}
