package io.zklock.autoconfigure;

import java.time.Duration;

import io.zklock.annotation.OnHoldExceeded;
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
	 * How long a @DistributedLock call whose work was cancelled where zklock cannot see that
	 * work end (a Flux cut off by its subscriber or by zklock for holdAtMost) keeps
	 * its lock after the cancel, before letting it go with a WARN. Zero releases at once, for
	 * work that stops on cancel.
	 */
	private Duration holdAfterCancel = Duration.ofSeconds(10);

	/**
	 * The holdAtMost of @DistributedLock methods that set none: how long a call should hold
	 * its lock at most before zklock reports it (and acts by on-hold-exceeded). Never releases
	 * the lock. None unless set.
	 */
	private Duration defaultHoldAtMost;

	/**
	 * What zklock does, besides reporting it, when a @DistributedLock call holds its lock
	 * past its holdAtMost, for annotations that set no onHoldExceeded: warn, interrupt the
	 * thread running the method, or cancel a stage or publisher.
	 */
	private OnHoldExceeded onHoldExceeded = OnHoldExceeded.WARN;

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
	 * The value of {@code zklock.hold-after-cancel}.
	 * @return the value
	 */
	public Duration getHoldAfterCancel() {
		return this.holdAfterCancel;
	}

	/**
	 * Sets {@code zklock.hold-after-cancel}.
	 * @param holdAfterCancel the value
	 */
	public void setHoldAfterCancel(Duration holdAfterCancel) {
		this.holdAfterCancel = holdAfterCancel;
	}

	/**
	 * The value of {@code zklock.default-hold-at-most}.
	 * @return the value, or {@code null} for none
	 */
	public Duration getDefaultHoldAtMost() {
		return this.defaultHoldAtMost;
	}

	/**
	 * Sets {@code zklock.default-hold-at-most}.
	 * @param defaultHoldAtMost the value, or {@code null} for none
	 */
	public void setDefaultHoldAtMost(Duration defaultHoldAtMost) {
		this.defaultHoldAtMost = defaultHoldAtMost;
	}

	/**
	 * The value of {@code zklock.on-hold-exceeded}.
	 * @return the value
	 */
	public OnHoldExceeded getOnHoldExceeded() {
		return this.onHoldExceeded;
	}

	/**
	 * Sets {@code zklock.on-hold-exceeded}.
	 * @param onHoldExceeded the value
	 */
	public void setOnHoldExceeded(OnHoldExceeded onHoldExceeded) {
		this.onHoldExceeded = onHoldExceeded;
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
