package io.zklock.leadership;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.zklock.leadership.RecordingLeadershipListener.Event;
import io.zklock.leadership.RecordingLeadershipListener.Type;
import io.zklock.lock.LockEngine;
import io.zklock.lock.LockState;
import io.zklock.lock.ZkServerTest;
import io.zklock.lock.ZkTestSupport;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.SessionConnectionStateErrorPolicy;
import org.apache.curator.retry.RetryNTimes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Jeopardy on real connection and session failures (docs/leadership-protocol.md): a suspended
 * connection revokes a term at once, before any listener runs, whatever the error policy; the same
 * term resumes after a reconnect once its node is confirmed; a lost session or a deleted node ends
 * it and the candidate is elected again by itself; a listener that blocks delays neither. Session
 * timeout 4 s.
 */
@Tag("slow")
@Timeout(120)
class JeopardyTests extends ZkServerTest {

	private static final Logger logger = LoggerFactory.getLogger(JeopardyTests.class);

	private static final int SESSION_TIMEOUT_MS = 4000;

	private static final Duration WAIT = Duration.ofSeconds(30);

	@Test
	void shouldRevokeAtOnceWhenSuspendedAndResumeTheSameTermOnceItsNodeIsConfirmed() throws Exception {
		shouldRevokeWhenSuspendedAndResume(false);
	}

	@Test
	void shouldRevokeWhenSuspendedUnderTheSessionPolicyToo() throws Exception {
		// under the session policy a lock stays held while suspended; a term does not
		shouldRevokeWhenSuspendedAndResume(true);
	}

	private void shouldRevokeWhenSuspendedAndResume(boolean sessionPolicy) throws Exception {
		CuratorFramework client = client(sessionPolicy);
		RecordingLeadershipListener events = new RecordingLeadershipListener();
		try (LeaderElection election = election(client)) {
			Candidacy candidacy = election.join("billing-close", events);
			Term term = candidacy.awaitTerm(WAIT).orElseThrow();
			events.await(Type.GRANTED, 1);
			// Curator calls its state listeners in no set order: whichever runs first, the term is
			// not active any more when SUSPENDED is told to anyone
			List<Boolean> activeWhenSuspended = new CopyOnWriteArrayList<>();
			long[] suspendedAt = new long[1];
			client.getConnectionStateListenable().addListener((c, state) -> {
				if (state == ConnectionState.SUSPENDED) {
					suspendedAt[0] = System.nanoTime();
					activeWhenSuspended.add(term.isActive());
				}
			});

			server.stop();
			Event revoked = events.await(Type.REVOKED, 1);
			assertThat(revoked.reason()).isEqualTo(RevocationReason.CONNECTION_SUSPENDED);
			assertThat(revoked.term()).isSameAs(term);
			assertThat(activeWhenSuspended).as("the term stopped before any listener of SUSPENDED ran")
				.containsExactly(false);
			logger.info("SUSPENDED -> onRevoked ran after {} µs", (revoked.nanos() - suspendedAt[0]) / 1_000);
			assertThat(term.isActive()).isFalse();
			assertThat(term.isEnded()).isFalse();
			assertThat(term.lock().state()).isEqualTo(LockState.IN_DOUBT);
			assertThat(candidacy.state()).isEqualTo(CandidacyState.JEOPARDY);
			assertThat(term.revocationReason()).contains(RevocationReason.CONNECTION_SUSPENDED);

			server.restart();
			Event resumed = events.await(Type.GRANTED, 2);
			assertThat(resumed.term()).as("the same term").isSameAs(term);
			assertThat(resumed.token()).isEqualTo(term.fencingToken());
			assertThat(term.isActive()).isTrue();
			assertThat(term.revocationReason()).isEmpty();
			assertThat(candidacy.state()).isEqualTo(CandidacyState.LEADER);
			assertThat(events.types()).containsSubsequence(Type.GRANTED, Type.REVOKED, Type.GRANTED);
		}
	}

	@Test
	void shouldEndTheTermWithItsSessionAndBeElectedAgainOnTheNewOne() throws Exception {
		CuratorFramework client = client(false);
		RecordingLeadershipListener events = new RecordingLeadershipListener();
		try (LeaderElection election = election(client)) {
			Candidacy candidacy = election.join("billing-close", events);
			Term term = candidacy.awaitTerm(WAIT).orElseThrow();
			long sessionBefore = client.getZookeeperClient().getZooKeeper().getSessionId();

			ZkTestSupport.expireSession(server, client);
			await().atMost(WAIT).until(term::isEnded);
			assertThat(term.revocationReason()).contains(RevocationReason.SESSION_LOST);
			assertThat(term.lock().state()).isEqualTo(LockState.LOST);
			Term next = awaitNewTerm(candidacy, term);
			assertThat(next.fencingToken()).isGreaterThan(term.fencingToken());
			assertThat(client.getZookeeperClient().getZooKeeper().getSessionId()).isNotEqualTo(sessionBefore);
			assertThat(election.leader("billing-close").orElseThrow().thisClient()).isTrue();
			assertThat(events.of(Type.REVOKED)).first().satisfies((revoked) -> assertThat(revoked.term()).isSameAs(term));
		}
	}

	@Test
	void shouldBeElectedAgainAfterTheServerRestartsPastTheSession() throws Exception {
		// CURATOR-724: a latch that was never elected again after a server restart
		CuratorFramework client = client(false);
		RecordingLeadershipListener events = new RecordingLeadershipListener();
		try (LeaderElection election = election(client)) {
			Candidacy candidacy = election.join("nightly", events);
			Term term = candidacy.awaitTerm(WAIT).orElseThrow();
			List<ConnectionState> states = new CopyOnWriteArrayList<>();
			client.getConnectionStateListenable().addListener((c, state) -> states.add(state));

			server.stop();
			await().atMost(WAIT).until(() -> states.contains(ConnectionState.LOST));
			assertThat(term.isEnded()).isTrue();
			assertThat(term.revocationReason()).contains(RevocationReason.SESSION_LOST);
			assertThat(events.of(Type.REVOKED)).singleElement()
				.satisfies((revoked) -> assertThat(revoked.reason()).isEqualTo(RevocationReason.CONNECTION_SUSPENDED));

			server.restart();
			Term next = awaitNewTerm(candidacy, term);
			assertThat(next.fencingToken()).isGreaterThan(term.fencingToken());
			assertThat(events.await(Type.GRANTED, 2).term()).isSameAs(next);
		}
	}

	@Test
	void shouldEndTheTermWhenItsNodeIsDeletedAndQueueAgain() throws Exception {
		CuratorFramework client = client(false);
		CuratorFramework operator = client(false);
		RecordingLeadershipListener events = new RecordingLeadershipListener();
		try (LeaderElection election = election(client)) {
			Candidacy candidacy = election.join("importer", events);
			Term term = candidacy.awaitTerm(WAIT).orElseThrow();
			await().atMost(WAIT).until(() -> candidacy.leader().isPresent());

			operator.delete().forPath(term.lock().nodePath());
			Event revoked = events.await(Type.REVOKED, 1);
			assertThat(revoked.reason()).isEqualTo(RevocationReason.NODE_DELETED);
			assertThat(term.isEnded()).isTrue();
			Term next = awaitNewTerm(candidacy, term);
			assertThat(next.fencingToken()).isGreaterThan(term.fencingToken());
		}
	}

	@Test
	void shouldNotLetABlockedListenerDelayARevocationTheNextGrantOrAHandover() throws Exception {
		CuratorFramework client = client(false);
		CountDownLatch unblock = new CountDownLatch(1);
		RecordingLeadershipListener events = new RecordingLeadershipListener();
		LeadershipListener blocking = new LeadershipListener() {
			@Override
			public void onRevoked(Term term, RevocationReason reason) {
				try {
					// a listener that blocks for 60 s
					unblock.await(60, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		};
		try (LeaderElection election = election(client, (builder) -> builder.handoverTimeout(Duration.ofMillis(300)));
				LeaderElection rival = election(client(false))) {
			Candidacy candidacy = election.join("billing-close", blocking);
			candidacy.addListener(events);
			Term term = candidacy.awaitTerm(WAIT).orElseThrow();
			List<Boolean> activeWhenSuspended = new CopyOnWriteArrayList<>();
			client.getConnectionStateListenable().addListener((c, state) -> {
				if (state == ConnectionState.SUSPENDED) {
					activeWhenSuspended.add(term.isActive());
				}
			});

			// the connection drops and comes back at once: SUSPENDED, RECONNECTED with the same session
			client.getZookeeperClient().getZooKeeper().getTestable().closeSocket();
			await().atMost(WAIT).until(() -> !activeWhenSuspended.isEmpty());
			assertThat(activeWhenSuspended).containsExactly(false);
			// the blocked onRevoked holds back the later listener calls of this candidacy, not the term
			await().atMost(WAIT).until(term::isActive);
			assertThat(events.of(Type.GRANTED)).hasSize(1);

			Candidacy next = rival.join("billing-close");
			await().atMost(WAIT).until(() -> rival.candidates("billing-close").size() == 2);
			long leaving = System.nanoTime();
			candidacy.leave();
			long leftAfterMs = (System.nanoTime() - leaving) / 1_000_000;
			Term nextTerm = next.awaitTerm(WAIT).orElseThrow();
			logger.info("leave with a blocked listener returned after {} ms (handover timeout 300 ms)", leftAfterMs);
			assertThat(leftAfterMs).as("leave waits for the listeners at most the handover timeout, not 60 s")
				.isLessThan(10_000);
			assertThat(nextTerm.fencingToken()).isGreaterThan(term.fencingToken());
			assertThat(term.isEnded()).isTrue();
		}
		finally {
			unblock.countDown();
		}
	}

	private static Term awaitNewTerm(Candidacy candidacy, Term old) {
		await().atMost(WAIT)
			.until(() -> candidacy.currentTerm().filter((term) -> term != old && term.isActive()).isPresent());
		return candidacy.currentTerm().orElseThrow();
	}

	private CuratorFramework client(boolean sessionPolicy) {
		return this.clients.newClient((builder) -> settings(builder, sessionPolicy));
	}

	private static void settings(CuratorFrameworkFactory.Builder builder, boolean sessionPolicy) {
		builder.sessionTimeoutMs(SESSION_TIMEOUT_MS).connectionTimeoutMs(1000).retryPolicy(new RetryNTimes(3, 100));
		if (sessionPolicy) {
			builder.connectionStateErrorPolicy(new SessionConnectionStateErrorPolicy());
		}
	}

	private static LeaderElection election(CuratorFramework client) {
		return election(client, (builder) -> {
		});
	}

	private static LeaderElection election(CuratorFramework client, Consumer<LeaderElection.Builder> settings) {
		LeaderElection.Builder builder = LeaderElection.builder(new LockEngine(client, "/locks"))
			.holder("app", null);
		settings.accept(builder);
		return builder.build();
	}

}
