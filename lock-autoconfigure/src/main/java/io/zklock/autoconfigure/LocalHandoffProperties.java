package io.zklock.autoconfigure;

import java.time.Duration;

import io.zklock.lock.LocalHandoff;

/**
 * Local handoff (lock cohorting) of the lock engine, {@code zklock.local-handoff.*}: a held
 * EXCLUSIVE or WRITE lock node is handed to this application's next waiter for the same lock path
 * with one ZooKeeper write, up to a bound, instead of being deleted and queued for again.
 */
public class LocalHandoffProperties {

	/**
	 * Whether EXCLUSIVE and WRITE acquires of this application for one lock path share one lock
	 * node, handed from holder to the next local waiter with one ZooKeeper write.
	 */
	private boolean enabled = false;

	/**
	 * Most handoffs of one lock node before it is released and the local waiters queue again
	 * behind other processes' waiters.
	 */
	private int maxHandoffs = 32;

	/**
	 * Longest time from a lock node's grant during which it is handed on; then it is released
	 * and the local waiters queue again behind other processes' waiters.
	 */
	private Duration maxTime = Duration.ofMillis(50);

	/**
	 * The value of {@code zklock.local-handoff.enabled}.
	 * @return the value
	 */
	public boolean isEnabled() {
		return this.enabled;
	}

	/**
	 * Sets {@code zklock.local-handoff.enabled}.
	 * @param enabled the value
	 */
	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	/**
	 * The value of {@code zklock.local-handoff.max-handoffs}.
	 * @return the value
	 */
	public int getMaxHandoffs() {
		return this.maxHandoffs;
	}

	/**
	 * Sets {@code zklock.local-handoff.max-handoffs}.
	 * @param maxHandoffs the value
	 */
	public void setMaxHandoffs(int maxHandoffs) {
		this.maxHandoffs = maxHandoffs;
	}

	/**
	 * The value of {@code zklock.local-handoff.max-time}.
	 * @return the value
	 */
	public Duration getMaxTime() {
		return this.maxTime;
	}

	/**
	 * Sets {@code zklock.local-handoff.max-time}.
	 * @param maxTime the value
	 */
	public void setMaxTime(Duration maxTime) {
		this.maxTime = maxTime;
	}

	/**
	 * The engine's setting.
	 * @param checks names a bad value as the user wrote it
	 * @return the setting
	 * @throws org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException
	 * if {@code max-handoffs} is below 1 or {@code max-time} is not positive
	 */
	LocalHandoff toSetting(ZkLockPropertyChecks checks) {
		if (this.maxHandoffs < 1) {
			throw checks.invalid("zklock.local-handoff.max-handoffs", this.maxHandoffs,
					"it must be at least 1; set zklock.local-handoff.enabled=false to hand no lock node on");
		}
		if (this.maxTime == null || this.maxTime.isZero() || this.maxTime.isNegative()) {
			throw checks.invalid("zklock.local-handoff.max-time", this.maxTime,
					"it must be positive; set a duration such as '50ms'");
		}
		return new LocalHandoff(this.enabled, this.maxHandoffs, this.maxTime);
	}

}
