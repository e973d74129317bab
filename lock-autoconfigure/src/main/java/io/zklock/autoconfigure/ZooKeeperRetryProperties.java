package io.zklock.autoconfigure;

import java.time.Duration;

/**
 * Retry policy of the Curator client: bounded exponential back-off, {@code zklock.zookeeper.retry.*}.
 */
public class ZooKeeperRetryProperties {

	/**
	 * Sleep before the first retry; later sleeps grow exponentially.
	 */
	private Duration baseSleep = Duration.ofMillis(100);

	/**
	 * Maximum number of retries of one ZooKeeper operation.
	 */
	private int maxRetries = 3;

	/**
	 * Upper bound of the sleep between two retries.
	 */
	private Duration maxSleep = Duration.ofSeconds(5);

	/**
	 * The value of {@code zklock.zookeeper.retry.base-sleep}.
	 * @return the value
	 */
	public Duration getBaseSleep() {
		return this.baseSleep;
	}

	/**
	 * Sets {@code zklock.zookeeper.retry.base-sleep}.
	 * @param baseSleep the value
	 */
	public void setBaseSleep(Duration baseSleep) {
		this.baseSleep = baseSleep;
	}

	/**
	 * The value of {@code zklock.zookeeper.retry.max-retries}.
	 * @return the value
	 */
	public int getMaxRetries() {
		return this.maxRetries;
	}

	/**
	 * Sets {@code zklock.zookeeper.retry.max-retries}.
	 * @param maxRetries the value
	 */
	public void setMaxRetries(int maxRetries) {
		this.maxRetries = maxRetries;
	}

	/**
	 * The value of {@code zklock.zookeeper.retry.max-sleep}.
	 * @return the value
	 */
	public Duration getMaxSleep() {
		return this.maxSleep;
	}

	/**
	 * Sets {@code zklock.zookeeper.retry.max-sleep}.
	 * @param maxSleep the value
	 */
	public void setMaxSleep(Duration maxSleep) {
		this.maxSleep = maxSleep;
	}

}
