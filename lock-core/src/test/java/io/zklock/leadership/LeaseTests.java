package io.zklock.leadership;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.zklock.leadership.RecordingLeadershipListener.Event;
import io.zklock.leadership.RecordingLeadershipListener.Type;
import io.zklock.lock.LockEngine;
import io.zklock.lock.ZkServerTest;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.admin.ZooKeeperAdmin;
import org.apache.zookeeper.client.ZKClientConfig;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The local lease (docs/leadership-protocol.md, "The lease") on a real server, with the replies to
 * the lease's renewals held back while the connection itself stays up (its pings go on): what a
 * process frozen past its session sees when it runs again, or a server that stops answering. The
 * term stops when the lease runs out, although the client noticed nothing; replies that arrive late
 * do not renew it (they count from their send); a renewal answered in time resumes the same term. A
 * real {@code SIGSTOP} of a child JVM is the fault suite's. Session timeout 4 s.
 */
@Tag("slow")
@Timeout(120)
class LeaseTests extends ZkServerTest {

	private static final Logger logger = LoggerFactory.getLogger(LeaseTests.class);

	private static final Duration WAIT = Duration.ofSeconds(30);

	@Test
	void shouldRevokeWhenTheLeaseRunsOutWhileTheClientNoticesNothingAndResumeOnARenewal() throws Exception {
		Renewals renewals = new Renewals();
		List<ConnectionState> states = new CopyOnWriteArrayList<>();
		CuratorFramework client = this.clients.newClient((builder) -> builder.sessionTimeoutMs(4000)
			.connectionTimeoutMs(1000)
			.retryPolicy(new RetryNTimes(3, 100))
			.zookeeperFactory(renewals.factory()));
		client.getConnectionStateListenable().addListener((c, state) -> states.add(state));
		RecordingLeadershipListener events = new RecordingLeadershipListener();
		try (LeaderElection election = LeaderElection.builder(new LockEngine(client, "/locks")).build()) {
			Candidacy candidacy = election.join("billing-close", events);
			Term term = candidacy.awaitTerm(WAIT).orElseThrow();
			int sessionTimeoutMs = client.getZookeeperClient().getZooKeeper().getSessionTimeout();
			assertThat(election.leaseRemaining()).isPresent();

			long heldBack = System.nanoTime();
			renewals.holdBack.set(true);
			// the lease is read from the clock on each call: once it has run out the term is not active,
			// whether or not the election's timer has run yet
			await().atMost(WAIT).until(() -> election.leaseRemaining().isEmpty());
			assertThat(term.isActive()).isFalse();
			Event revoked = events.await(Type.REVOKED, 1);
			assertThat(revoked.reason()).isEqualTo(RevocationReason.LEASE_EXPIRED);
			logger.info("renewal replies held back -> revoked (LEASE_EXPIRED) after {} ms, session timeout {} ms",
					(revoked.nanos() - heldBack) / 1_000_000, sessionTimeoutMs);
			assertThat(client.getZookeeperClient().isConnected()).as("the client noticed nothing").isTrue();
			assertThat(states).doesNotContain(ConnectionState.SUSPENDED, ConnectionState.LOST);
			assertThat(term.isEnded()).isFalse();
			assertThat(candidacy.state()).isEqualTo(CandidacyState.JEOPARDY);

			// a reply that comes late counts from its request's send: one sent longer than the lease ago
			// renews nothing
			Duration lease = Duration.ofMillis((long) (sessionTimeoutMs * LeaderElection.DEFAULT_LEASE_FACTOR));
			Duration older = lease.plusMillis(200);
			await().atMost(WAIT).until(() -> renewals.heldSentBefore(older) > 0);
			renewals.releaseSentBefore(older);
			assertThat(renewals.delivered).hasPositiveValue();
			assertThat(election.leaseRemaining()).isEmpty();
			assertThat(term.isActive()).isFalse();

			renewals.holdBack.set(false);
			renewals.releaseAll();
			Event resumed = events.await(Type.GRANTED, 2);
			assertThat(resumed.term()).isSameAs(term);
			assertThat(term.isActive()).isTrue();
			assertThat(election.leaseRemaining()).isPresent();
			assertThat(states).doesNotContain(ConnectionState.SUSPENDED, ConnectionState.LOST);
		}
	}

	/** Holds back the replies to the lease's renewals: an {@code exists} of the root, sent asynchronously. */
	static final class Renewals {

		final AtomicBoolean holdBack = new AtomicBoolean();

		final AtomicInteger delivered = new AtomicInteger();

		private final List<Held> held = new CopyOnWriteArrayList<>();

		/** How many replies held back now were sent longer than {@code age} ago. */
		long heldSentBefore(Duration age) {
			long before = System.nanoTime() - age.toNanos();
			return this.held.stream().filter((reply) -> reply.sentAt - before < 0).count();
		}

		/** Delivers the replies held back whose requests were sent longer than {@code age} ago. */
		void releaseSentBefore(Duration age) {
			long before = System.nanoTime() - age.toNanos();
			for (Held reply : List.copyOf(this.held)) {
				if (reply.sentAt - before < 0 && this.held.remove(reply)) {
					this.delivered.incrementAndGet();
					reply.delivery.run();
				}
			}
		}

		void releaseAll() {
			for (Held reply : List.copyOf(this.held)) {
				if (this.held.remove(reply)) {
					reply.delivery.run();
				}
			}
		}

		ZookeeperFactory factory() {
			return new ZookeeperFactory() {

				@Override
				public ZooKeeper newZooKeeper(String connectString, int sessionTimeout, Watcher watcher,
						boolean canBeReadOnly) throws IOException {
					return newZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly, new ZKClientConfig());
				}

				@Override
				public ZooKeeper newZooKeeper(String connectString, int sessionTimeout, Watcher watcher,
						boolean canBeReadOnly, ZKClientConfig config) throws IOException {
					return new Handle(connectString, sessionTimeout, watcher, canBeReadOnly, config, Renewals.this);
				}

			};
		}

	}

	private static final class Handle extends ZooKeeperAdmin {

		private final Renewals renewals;

		Handle(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly,
				ZKClientConfig config, Renewals renewals) throws IOException {
			super(connectString, sessionTimeout, watcher, canBeReadOnly, config);
			this.renewals = renewals;
		}

		@Override
		public void exists(String path, boolean watch, AsyncCallback.StatCallback cb, Object ctx) {
			if (!path.equals("/")) {
				super.exists(path, watch, cb, ctx);
				return;
			}
			long sentAt = System.nanoTime();
			super.exists(path, watch, (rc, replyPath, context, stat) -> {
				if (this.renewals.holdBack.get()) {
					this.renewals.held.add(new Held(sentAt, () -> cb.processResult(rc, replyPath, context, stat)));
				}
				else {
					cb.processResult(rc, replyPath, context, stat);
				}
			}, ctx);
		}

	}

	/** A reply held back, and when its request was sent. */
	private record Held(long sentAt, Runnable delivery) {
	}

}
