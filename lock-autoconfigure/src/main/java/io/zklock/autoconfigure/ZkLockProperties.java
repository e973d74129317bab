package io.zklock.autoconfigure;

import java.time.Duration;

import io.zklock.annotation.OnLockLost;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.core.Ordered;

/**
 * Configuration properties for zklock distributed locks.
 *
 * @author zklock
 */
@ConfigurationProperties("zklock")
public class ZkLockProperties {

	/**
	 * Whether to enable zklock's auto-configuration.
	 */
	private boolean enabled = true;

	/**
	 * ZooKeeper path, inside the client's namespace, under which lock paths live.
	 */
	private String rootPath = "/locks";

	/**
	 * How long @DistributedLock waits for a lock when the annotation sets no wait time.
	 */
	private Duration defaultWaitTime = Duration.ofSeconds(30);

	/**
	 * Order of the @DistributedLock interceptor; it must be lower than the transaction
	 * advisor's order so that the lock wraps the transaction.
	 */
	private int aspectOrder = Ordered.LOWEST_PRECEDENCE - 1;

	/**
	 * What a @DistributedLock method's interceptor does when the lock is lost or put in doubt
	 * while the method runs.
	 */
	private OnLockLost onLockLost = OnLockLost.FAIL;

	/**
	 * Whether a @DistributedLock method that runs inside a transaction it did not start keeps
	 * its lock until that transaction completes, so no other process reads uncommitted state
	 * under the lock.
	 */
	private boolean releaseAfterTransaction = true;

	/**
	 * Text every lock node carries as its data, to tell holders apart (for example the host
	 * and port of this instance). Empty for none; never the IP address by default.
	 */
	private String instanceId;

	@NestedConfigurationProperty
	private final ZooKeeperProperties zookeeper = new ZooKeeperProperties();

	@NestedConfigurationProperty
	private final LocalHandoffProperties localHandoff = new LocalHandoffProperties();

	/**
	 * The value of {@code zklock.enabled}.
	 * @return the value
	 */
	public boolean isEnabled() {
		return this.enabled;
	}

	/**
	 * Sets {@code zklock.enabled}.
	 * @param enabled the value
	 */
	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	/**
	 * The value of {@code zklock.root-path}.
	 * @return the value
	 */
	public String getRootPath() {
		return this.rootPath;
	}

	/**
	 * Sets {@code zklock.root-path}.
	 * @param rootPath the value
	 */
	public void setRootPath(String rootPath) {
		this.rootPath = rootPath;
	}

	/**
	 * The value of {@code zklock.default-wait-time}.
	 * @return the value
	 */
	public Duration getDefaultWaitTime() {
		return this.defaultWaitTime;
	}

	/**
	 * Sets {@code zklock.default-wait-time}.
	 * @param defaultWaitTime the value
	 */
	public void setDefaultWaitTime(Duration defaultWaitTime) {
		this.defaultWaitTime = defaultWaitTime;
	}

	/**
	 * The value of {@code zklock.aspect-order}.
	 * @return the value
	 */
	public int getAspectOrder() {
		return this.aspectOrder;
	}

	/**
	 * Sets {@code zklock.aspect-order}.
	 * @param aspectOrder the value
	 */
	public void setAspectOrder(int aspectOrder) {
		this.aspectOrder = aspectOrder;
	}

	/**
	 * The value of {@code zklock.on-lock-lost}.
	 * @return the value
	 */
	public OnLockLost getOnLockLost() {
		return this.onLockLost;
	}

	/**
	 * Sets {@code zklock.on-lock-lost}.
	 * @param onLockLost the value
	 */
	public void setOnLockLost(OnLockLost onLockLost) {
		this.onLockLost = onLockLost;
	}

	/**
	 * The value of {@code zklock.instance-id}.
	 * @return the value
	 */
	public String getInstanceId() {
		return this.instanceId;
	}

	/**
	 * Sets {@code zklock.instance-id}.
	 * @param instanceId the value
	 */
	public void setInstanceId(String instanceId) {
		this.instanceId = instanceId;
	}

	/**
	 * The value of {@code zklock.release-after-transaction}.
	 * @return the value
	 */
	public boolean isReleaseAfterTransaction() {
		return this.releaseAfterTransaction;
	}

	/**
	 * Sets {@code zklock.release-after-transaction}.
	 * @param releaseAfterTransaction the value
	 */
	public void setReleaseAfterTransaction(boolean releaseAfterTransaction) {
		this.releaseAfterTransaction = releaseAfterTransaction;
	}

	/**
	 * The {@code zklock.zookeeper.*} settings.
	 * @return the settings
	 */
	public ZooKeeperProperties getZookeeper() {
		return this.zookeeper;
	}

	/**
	 * The {@code zklock.local-handoff.*} settings.
	 * @return the settings
	 */
	public LocalHandoffProperties getLocalHandoff() {
		return this.localHandoff;
	}

}
