package io.zklock.integration.leader;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionStateErrorPolicy;
import org.apache.curator.framework.state.StandardConnectionStateErrorPolicy;
import org.apache.curator.retry.ExponentialBackoffRetry;

import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.integration.leader.DefaultCandidate;
import org.springframework.integration.leader.event.AbstractLeaderEvent;
import org.springframework.integration.leader.event.OnGrantedEvent;
import org.springframework.integration.leader.event.OnRevokedEvent;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;
import org.springframework.integration.support.locks.LockRegistry;

/**
 * One application instance that competes for leadership: a Spring context with its own
 * Curator client, a lock registry, Spring Integration's {@link LockRegistryLeaderInitiator}
 * (default heartbeat 500 ms) and a worker that writes to a fenced resource every 100 ms while
 * the instance believes it leads, with the leadership's fencing token; on revocation it makes
 * one last write with the old token (work that was in flight).
 */
final class LeaderNode implements AutoCloseable {

	static final String ROLE = "leader";

	/** Where an instance reports what it believes and writes. */
	interface Reporter {

		void granted(String instance, long token);

		void revoked(String instance);

		void write(String instance, long token);

	}

	private final AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();

	private final CuratorFramework client;

	private final String name;

	private final Reporter reporter;

	/** The leadership's token while leading; {@code Long.MIN_VALUE} while not. */
	private final AtomicLong leading = new AtomicLong(Long.MIN_VALUE);

	private final Thread writer;

	LeaderNode(String name, String connectString, Duration sessionTimeout, RegistryKind kind, Reporter reporter) {
		this(name, connectString, sessionTimeout, kind, new StandardConnectionStateErrorPolicy(),
				Duration.ofMillis(LockRegistryLeaderInitiator.DEFAULT_HEART_BEAT_TIME), reporter);
	}

	/**
	 * An instance whose client follows {@code policy} (under Curator's standard policy a
	 * suspended connection puts zklock's locks in doubt, under the session policy only a lost
	 * session counts: Curator Tech Note 14), with the initiator's heartbeat set to
	 * {@code heartbeat}.
	 */
	LeaderNode(String name, String connectString, Duration sessionTimeout, RegistryKind kind,
			ConnectionStateErrorPolicy policy, Duration heartbeat, Reporter reporter) {
		this.name = name;
		this.reporter = reporter;
		this.client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.sessionTimeoutMs((int) sessionTimeout.toMillis())
			.connectionTimeoutMs((int) sessionTimeout.toMillis())
			.retryPolicy(new ExponentialBackoffRetry(100, 3))
			.connectionStateErrorPolicy(policy)
			.build();
		this.client.start();
		LockRegistry<?> registry = kind.create(this.client);
		LockRegistryLeaderInitiator initiator = new LockRegistryLeaderInitiator(registry,
				new DefaultCandidate(name, ROLE));
		initiator.setHeartBeatMillis(heartbeat.toMillis());
		this.context.registerBean("lockRegistry", LockRegistry.class, () -> registry);
		this.context.registerBean("leaderInitiator", LockRegistryLeaderInitiator.class, () -> initiator);
		this.context.addApplicationListener((ApplicationListener<AbstractLeaderEvent>) (event) -> {
			if (event instanceof OnGrantedEvent) {
				long token = kind.token(registry, ROLE).orElse(-1);
				this.leading.set(token);
				reporter.granted(name, token);
			}
			else if (event instanceof OnRevokedEvent) {
				long token = this.leading.getAndSet(Long.MIN_VALUE);
				reporter.revoked(name);
				if (token != Long.MIN_VALUE) {
					reporter.write(name, token);
				}
			}
		});
		this.writer = new Thread(this::writeWhileLeading, "writer-" + name);
		this.writer.setDaemon(true);
		this.context.refresh();
		this.writer.start();
	}

	private void writeWhileLeading() {
		while (!Thread.currentThread().isInterrupted()) {
			long token = this.leading.get();
			if (token != Long.MIN_VALUE) {
				this.reporter.write(this.name, token);
			}
			try {
				Thread.sleep(100);
			}
			catch (InterruptedException ex) {
				return;
			}
		}
	}

	String name() {
		return this.name;
	}

	CuratorFramework client() {
		return this.client;
	}

	@Override
	public void close() {
		this.writer.interrupt();
		this.context.close();
		this.client.close();
	}

}
