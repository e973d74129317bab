package io.zklock.leadership;

import java.time.Duration;
import java.util.List;

import io.zklock.leadership.RecordingLeadershipListener.Event;
import io.zklock.leadership.RecordingLeadershipListener.Type;
import io.zklock.lock.LockEngine;
import io.zklock.lock.LockState;
import io.zklock.lock.ZkServerTest;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Grants, followers, yields and handovers on a real server: each election stands for a process of
 * its own (a client of its own).
 */
@Timeout(120)
class LeaderElectionTests extends ZkServerTest {

	private static final Logger logger = LoggerFactory.getLogger(LeaderElectionTests.class);

	private static final Duration WAIT = Duration.ofSeconds(20);

	@Test
	void shouldGrantTheOnlyCandidateATermWithItsHoldsToken() throws Exception {
		RecordingLeadershipListener events = new RecordingLeadershipListener();
		try (LeaderElection election = election("app-1")) {
			Candidacy candidacy = election.join("billing-close", events);
			Term term = candidacy.awaitTerm(WAIT).orElseThrow();
			assertThat(candidacy.isLeader()).isTrue();
			assertThat(candidacy.state()).isEqualTo(CandidacyState.LEADER);
			assertThat(term.isActive()).isTrue();
			assertThat(term.role()).isEqualTo("billing-close");
			assertThat(term.fencingToken()).isPositive();
			assertThat(term.lock().fencingToken()).isEqualTo(term.fencingToken());
			assertThat(term.lock().lockPath()).isEqualTo("billing-close");
			assertThat(term.lock().isHeld()).isTrue();
			assertThat(term.lock().state()).isEqualTo(LockState.HELD);
			assertThat(events.await(Type.GRANTED, 1).term()).isSameAs(term);
			assertThat(events.of(Type.GRANTED).get(0).thread()).startsWith("zklock-leadership-events-");
			Candidate leader = election.leader("billing-close").orElseThrow();
			assertThat(leader.leader()).isTrue();
			assertThat(leader.thisClient()).isTrue();
			assertThat(leader.application()).isEqualTo("app-1");
			assertThat(leader.instance()).isEqualTo("app-1-instance");
			assertThat(leader.processId()).isEqualTo(ProcessHandle.current().pid());
			assertThat(term.lock().nodePath()).isEqualTo("/leaders/billing-close/" + leader.nodeName());
			await().atMost(WAIT).until(() -> candidacy.leader().isPresent());
			assertThat(candidacy.leader().orElseThrow().nodeName()).isEqualTo(leader.nodeName());
		}
	}

	@Test
	void shouldTellAFollowerWhoLeadsAndGrantItWithinARoundTripWhenTheLeaderLeaves() throws Exception {
		RecordingLeadershipListener firstEvents = new RecordingLeadershipListener();
		RecordingLeadershipListener secondEvents = new RecordingLeadershipListener();
		try (LeaderElection first = election("app-1"); LeaderElection second = election("app-2")) {
			Candidacy leading = first.join("reports", firstEvents);
			Term firstTerm = leading.awaitTerm(WAIT).orElseThrow();
			Candidacy following = second.join("reports", secondEvents);
			await().atMost(WAIT).until(() -> second.candidates("reports").size() == 2);
			assertThat(following.state()).isEqualTo(CandidacyState.FOLLOWER);
			assertThat(following.isLeader()).isFalse();
			Event changed = secondEvents.await(Type.LEADER_CHANGED, 1);
			assertThat(changed.leader().application()).isEqualTo("app-1");
			assertThat(changed.leader().thisClient()).isFalse();
			List<Candidate> candidates = second.candidates("reports");
			assertThat(candidates).extracting(Candidate::application).containsExactly("app-1", "app-2");
			assertThat(candidates).extracting(Candidate::leader).containsExactly(true, false);

			long left = System.nanoTime();
			leading.leave();
			assertThat(firstTerm.isActive()).isFalse();
			Event granted = secondEvents.await(Type.GRANTED, 1);
			logger.info("leader left -> next candidate granted after {} µs", (granted.nanos() - left) / 1_000);
			assertThat(granted.token()).isGreaterThan(firstTerm.fencingToken());
			assertThat(firstEvents.await(Type.REVOKED, 1).reason()).isEqualTo(RevocationReason.SHUTDOWN);
			assertThat(leading.state()).isEqualTo(CandidacyState.LEFT);
			Event nowLeads = secondEvents.await(Type.LEADER_CHANGED, 2);
			assertThat(nowLeads.leader().thisClient()).isTrue();
		}
	}

	@Test
	void shouldQueueAgainAtTheBackWhenTheLeaderYields() throws Exception {
		try (LeaderElection first = election("app-1"); LeaderElection second = election("app-2")) {
			Candidacy a = first.join("jobs");
			Term aTerm = a.awaitTerm(WAIT).orElseThrow();
			Candidacy b = second.join("jobs");
			await().atMost(WAIT).until(() -> first.candidates("jobs").size() == 2);
			assertThat(a.yield()).isTrue();
			assertThat(aTerm.isActive()).isFalse();
			assertThat(aTerm.isEnded()).isTrue();
			assertThat(aTerm.revocationReason()).contains(RevocationReason.YIELDED);
			assertThat(aTerm.lock().state()).isEqualTo(LockState.RELEASED);
			Term bTerm = b.awaitTerm(WAIT).orElseThrow();
			assertThat(bTerm.fencingToken()).isGreaterThan(aTerm.fencingToken());
			await().atMost(WAIT).until(() -> a.state() == CandidacyState.FOLLOWER
					&& first.candidates("jobs").size() == 2);
			assertThat(first.candidates("jobs").get(1).thisClient()).isTrue();
			assertThat(b.yield(RevocationReason.UNHEALTHY)).isTrue();
			Term aAgain = a.awaitTerm(WAIT).orElseThrow();
			assertThat(aAgain).isNotSameAs(aTerm);
			assertThat(aAgain.fencingToken()).isGreaterThan(bTerm.fencingToken());
			assertThat(b.yield()).as("a follower has no term to yield").isFalse();
		}
	}

	@Test
	void shouldBeGrantedANewTermWithALargerTokenWhenTheOnlyCandidateYields() throws Exception {
		try (LeaderElection election = election("app-1")) {
			Candidacy candidacy = election.join("solo");
			Term before = candidacy.awaitTerm(WAIT).orElseThrow();
			assertThat(candidacy.yield()).isTrue();
			await().atMost(WAIT).until(() -> candidacy.currentTerm().filter((term) -> term != before).isPresent());
			Term after = candidacy.awaitTerm(WAIT).orElseThrow();
			assertThat(after.fencingToken()).isGreaterThan(before.fencingToken());
		}
	}

	@Test
	void shouldNotQueueAfterSteppingDownUntilRejoined() throws Exception {
		RecordingLeadershipListener events = new RecordingLeadershipListener();
		try (LeaderElection election = election("app-1")) {
			Candidacy candidacy = election.join("importer", events);
			candidacy.awaitTerm(WAIT).orElseThrow();
			candidacy.stepDown(RevocationReason.UNHEALTHY);
			assertThat(candidacy.state()).isEqualTo(CandidacyState.STOOD_DOWN);
			assertThat(events.await(Type.REVOKED, 1).reason()).isEqualTo(RevocationReason.UNHEALTHY);
			await().atMost(WAIT).until(() -> election.candidates("importer").isEmpty());
			assertThat(candidacy.awaitTerm(Duration.ofMillis(300))).isEmpty();
			candidacy.rejoin();
			assertThat(candidacy.awaitTerm(WAIT)).isPresent();
		}
	}

	@Test
	void shouldRefuseABadRoleNamingItAndTheRule() {
		try (LeaderElection election = election("app-1")) {
			org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
				.isThrownBy(() -> election.join("billing//close"))
				.withMessageStartingWith("Role 'billing//close' is invalid: a role must be a lock path under the "
						+ "leadership root /leaders")
				.withMessageContaining("empty segment");
			org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
				.isThrownBy(() -> election.join(" "))
				.withMessageStartingWith("Role ' ' is invalid");
			org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
				.isThrownBy(() -> election.join("../x"))
				.withMessageContaining("segment '..' is not allowed");
			election.join("ok");
			org.assertj.core.api.Assertions.assertThatIllegalStateException()
				.isThrownBy(() -> election.join("/ok"))
				.withMessageStartingWith("Role 'ok' already has a candidacy in this leader election");
			assertThat(election.candidacies()).singleElement().extracting(Candidacy::role).isEqualTo("ok");
		}
	}

	private LeaderElection election(String application) {
		return election(application, (builder) -> {
		});
	}

	private LeaderElection election(String application, java.util.function.Consumer<LeaderElection.Builder> settings) {
		CuratorFramework client = this.clients.newClient((builder) -> builder.sessionTimeoutMs(10_000));
		LockEngine engine = new LockEngine(client, "/locks");
		LeaderElection.Builder builder = LeaderElection.builder(engine)
			.holder(application, application + "-instance");
		settings.accept(builder);
		return builder.build();
	}

}
