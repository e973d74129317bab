package io.zklock.health;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

import io.zklock.health.internal.ZkLockConnectionCheck;
import io.zklock.lock.LockEngine;

import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;

/**
 * The health indicator of zklock's ZooKeeper connection on Spring Boot 3.5, where health types
 * live in {@code spring-boot-actuator} ({@code org.springframework.boot.actuate.health}); on
 * Boot 4 the same check is {@code ZkLockHealthIndicator}. Status and details are those of
 * {@link ZkLockConnectionCheck}. Thread-safe.
 */
public class ZkLockBoot3HealthIndicator extends AbstractHealthIndicator implements AutoCloseable {

	private final ZkLockConnectionCheck check;

	/**
	 * Creates an indicator and starts following the client's connection state.
	 * @param client the Curator client of the locks
	 * @param engine the lock engine whose held locks are counted, or {@code null} to
	 * leave the {@code heldLocks} detail out
	 * @throws IllegalArgumentException if {@code client} is {@code null}
	 */
	public ZkLockBoot3HealthIndicator(CuratorFramework client, @Nullable LockEngine engine) {
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
