package io.zklock.autoconfigure;

import java.util.Arrays;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;

import io.zklock.lock.LockEngine;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Fails start-up when the application's own {@link CuratorFramework}, which zklock locks
 * through, is not started when the application starts, or is already closed. zklock starts
 * and closes only a client it built itself: neither Spring Cloud Zookeeper (which backs off
 * for an application's client and uses it as it is) nor Spring Integration (whose
 * {@code CuratorFrameworkFactoryBean} starts only the client it builds, as a lifecycle bean
 * in phase {@code Integer.MIN_VALUE + 1000}, and whose lock registry never starts the client
 * it is given) starts a client it did not build, and starting it here would leave the
 * application's own later {@code start()} failing with Curator's "Cannot be started more than
 * once". Without this check, every lock would wait for a connection that never comes, and
 * time out as if contended.
 *
 * <p>
 * A closed client fails as soon as zklock resolves it ({@link #requireOpen}); a client not
 * started yet is checked in lifecycle phase {@link #PHASE}, after lifecycle beans that start
 * clients in earlier phases (Spring Integration's among them), and before the web server
 * starts (phase {@code SmartLifecycle.DEFAULT_PHASE - 1024}) and scheduled methods run.
 */
final class ApplicationClientCheck implements SmartLifecycle {

	/** The lifecycle phase of the check. */
	static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

	private static final String NEVER_COMES = "every lock would wait for a connection that never comes, as if it "
			+ "were held elsewhere.";

	private final LockEngine engine;

	private final ListableBeanFactory beanFactory;

	private volatile boolean running;

	ApplicationClientCheck(LockEngine engine, ListableBeanFactory beanFactory) {
		this.engine = engine;
		this.beanFactory = beanFactory;
	}

	/**
	 * Fails if a client is closed.
	 * @param beanName the client's bean name, for the message
	 * @param client the client
	 * @throws ZkLockStartupException if the client is closed
	 */
	static void requireOpen(String beanName, CuratorFramework client) {
		if (client.getState() == CuratorFrameworkState.STOPPED) {
			throw new ZkLockStartupException(subject(beanName, client) + " is already closed (state STOPPED), and a "
					+ "closed Curator client cannot be started again: " + NEVER_COMES,
					"Leave the client open while the application runs (look for a close() or a try-with-resources "
							+ "around it) and let the application context close it: "
							+ "@Bean(destroyMethod = \"close\").",
					null);
		}
	}

	@Override
	public void start() {
		CuratorFramework client = this.engine.getClient();
		String beanName = beanNameOf(this.beanFactory, client);
		requireOpen(beanName, client);
		if (client.getState() == CuratorFrameworkState.LATENT) {
			throw new ZkLockStartupException(
					subject(beanName, client) + " was never started (state LATENT): " + NEVER_COMES,
					"Start the client where it is defined: @Bean(initMethod = \"start\", destroyMethod = \"close\"), "
							+ "or call start() before returning it (zklock never starts or closes a client it did not "
							+ "build). Or remove the bean, and zklock builds and starts its own from zklock.zookeeper.*.",
					null);
		}
		this.running = true;
	}

	/**
	 * The bean name of a client, for messages.
	 * @return the name, or {@code "(not a bean)"}
	 */
	static String beanNameOf(ListableBeanFactory beanFactory, CuratorFramework client) {
		return Arrays.stream(beanFactory.getBeanNamesForType(CuratorFramework.class, true, false))
			.filter((name) -> beanFactory.getBean(name) == client)
			.findFirst()
			.orElse("(not a bean)");
	}

	private static String subject(String beanName, CuratorFramework client) {
		return "zklock locks through the application's CuratorFramework bean '" + beanName + "' (ensemble '"
				+ client.getZookeeperClient().getCurrentConnectionString() + "'), but that client";
	}

	@Override
	public void stop() {
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

}
