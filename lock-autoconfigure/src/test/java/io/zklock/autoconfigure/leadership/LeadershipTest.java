package io.zklock.autoconfigure.leadership;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.ZooKeeper;

import io.zklock.autoconfigure.LockedMethodsAutoConfiguration;
import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.autoconfigure.ZkLockStartupException;
import io.zklock.autoconfigure.ZkServerTest;
import io.zklock.leadership.Candidacy;
import io.zklock.leadership.LeaderElection;
import io.zklock.leadership.Term;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Base of the leadership test classes: one real server per class, and application contexts with
 * AOP, zklock's auto-configuration and its leadership, connected to it in a namespace of the test's
 * own, so that the roles of one test never meet another's.
 */
public abstract class LeadershipTest extends ZkServerTest {

	/** A generous bound for what happens within a few round trips on a local server. */
	protected static final Duration WAIT = Duration.ofSeconds(20);

	private static final AtomicInteger namespaces = new AtomicInteger();

	/** This test's namespace; the instances of one test share it. */
	protected final String namespace = "leadership-" + getClass().getSimpleName().toLowerCase() + "-"
			+ namespaces.incrementAndGet();

	/**
	 * A runner for one instance of the application, in this test's namespace.
	 * @param instance the instance's id, its lock nodes' {@code zklock.instance-id}
	 */
	protected ApplicationContextRunner instance(String instance) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ZkLockAutoConfiguration.class,
					LeadershipAutoConfiguration.class, LockedMethodsAutoConfiguration.class))
			.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString(),
					"zklock.zookeeper.namespace=" + this.namespace, "zklock.instance-id=" + instance);
	}

	/** The active term of a role in a context, waiting for it. */
	protected static Term awaitTerm(ApplicationContext context, String role) throws InterruptedException {
		Candidacy candidacy = context.getBean(LeaderElection.class).candidacy(role).orElseThrow();
		return candidacy.awaitTerm(WAIT).orElseThrow(() -> new AssertionError("no term of role '" + role + "' within "
				+ WAIT + ": " + candidacy));
	}

	/** Whether the context's candidacy for a role leads now. */
	protected static boolean leads(ApplicationContext context, String role) {
		return context.getBean(LeaderElection.class).isLeader(role);
	}

	/**
	 * Drops a context's ZooKeeper connection, as a network fault would: the socket is closed, and a
	 * request wakes the client's I/O thread, which finds it closed at once (alone, the client would
	 * notice only at its next request, up to a third of the session timeout later). The client
	 * reconnects on the same session.
	 */
	protected static void dropConnection(ApplicationContext context) throws Exception {
		ZooKeeper zookeeper = context.getBean(CuratorFramework.class).getZookeeperClient().getZooKeeper();
		zookeeper.getTestable().closeSocket();
		zookeeper.exists("/", false, (rc, path, ctx, stat) -> {
		}, null);
	}

	/** The zklock start-up failure in the cause chain of a context's start-up failure. */
	protected static ZkLockStartupException startupFailure(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof ZkLockStartupException startup) {
				return startup;
			}
		}
		throw new AssertionError("no ZkLockStartupException in the causes of " + failure, failure);
	}

	/** A client of this test's namespace, for holding a role from another session. */
	protected CuratorFramework otherClient() throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(server.getConnectString())
			.namespace(this.namespace)
			.retryPolicy(new RetryOneTime(100))
			.build();
		client.start();
		assertThat(client.blockUntilConnected(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
		return client;
	}

}
