package io.zklock.health;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

import io.zklock.health.internal.ZkLockConnectionCheck;
import io.zklock.lock.LockEngine;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * {@link org.springframework.boot.health.contributor.HealthIndicator HealthIndicator} of
 * zklock's ZooKeeper connection on Spring Boot 4: {@code UP} while the Curator client is
 * connected to the ensemble (locks can be taken), {@code DOWN} while it is suspended, lost,
 * connected to a read-only server only, or not started. Status and details are those of
 * {@link ZkLockConnectionCheck}; on Boot 3.5 the same check is
 * {@link ZkLockBoot3HealthIndicator}.
 *
 * <p>
 * The check makes no ZooKeeper call, so it answers at once even while the ensemble is
 * unreachable. It follows the client's connection state with a listener from construction
 * until {@link #close()}. Thread-safe.
 */
public class ZkLockHealthIndicator extends AbstractHealthIndicator implements AutoCloseable {

	private final ZkLockConnectionCheck check;

	/**
	 * Creates an indicator and starts following the client's connection state.
	 * @param client the Curator client of the locks
	 * @param engine the lock engine whose held locks are counted, or {@code null} to
	 * leave the {@code heldLocks} detail out
	 * @throws IllegalArgumentException if {@code client} is {@code null}
	 */
	public ZkLockHealthIndicator(CuratorFramework client, @Nullable LockEngine engine) {
		super("zklock health check failed");
		this.check = new ZkLockConnectionCheck(client, engine);
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		ZkLockConnectionCheck.Result result = this.check.check();
		builder.status(result.up() ? Status.UP : Status.DOWN).withDetails(result.details());
	}

	/**
	 * Stops following the client's connection state.
	 */
	@Override
	public void close() {
		this.check.close();
	}

}
