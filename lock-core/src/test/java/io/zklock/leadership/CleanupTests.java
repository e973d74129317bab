package io.zklock.leadership;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.zklock.lock.LockEngine;
import io.zklock.lock.ZkServerTest;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.client.FourLetterWordMain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Closing an election (or leaving a candidacy) leaves nothing behind: no candidate node, no watch
 * of its session on the server, no thread of its own; its client stays open.
 */
@Timeout(120)
class CleanupTests extends ZkServerTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	@Test
	void shouldLeaveNoNodeWatchOrThreadBehindWhenClosed() throws Exception {
		CuratorFramework client = this.clients.newClient();
		CuratorFramework rivalClient = this.clients.newClient();
		long session = client.getZookeeperClient().getZooKeeper().getSessionId();
		LeaderElection rival = new LeaderElection(new LockEngine(rivalClient, "/locks"));
		rival.join("followed").awaitTerm(WAIT).orElseThrow();
		LeaderElection election = new LeaderElection(new LockEngine(client, "/locks"));
		Candidacy leading = election.join("led");
		Candidacy following = election.join("followed");
		leading.awaitTerm(WAIT).orElseThrow();
		await().atMost(WAIT).until(() -> election.candidates("followed").size() == 2
				&& following.leader().isPresent() && leading.leader().isPresent());
		assertThat(watchedPaths(session)).isNotEmpty();

		election.close();
		assertThat(leading.state()).isEqualTo(CandidacyState.LEFT);
		assertThat(following.state()).isEqualTo(CandidacyState.LEFT);
		await().atMost(WAIT).untilAsserted(() -> {
			assertThat(rival.candidates("followed")).extracting(Candidate::thisClient).containsExactly(true);
			assertThat(rival.candidates("led")).isEmpty();
			assertThat(watchedPaths(session)).isEmpty();
		});
		assertThat(client.getZookeeperClient().isConnected()).isTrue();
		election.close();
		// the threads are named alike in every election: the rival's go with it
		rival.close();
		await().atMost(WAIT).untilAsserted(() -> assertThat(threads()).isEmpty());
	}

	@Test
	void shouldLetARoleBeJoinedAgainAfterItsCandidacyLeft() throws Exception {
		try (LeaderElection election = new LeaderElection(new LockEngine(this.clients.newClient(), "/locks"))) {
			Candidacy first = election.join("jobs");
			Term term = first.awaitTerm(WAIT).orElseThrow();
			first.leave();
			first.leave();
			assertThat(election.candidacy("jobs")).isEmpty();
			Candidacy again = election.join("jobs");
			assertThat(again.awaitTerm(WAIT).orElseThrow().fencingToken()).isGreaterThan(term.fencingToken());
			assertThat(election.candidacies()).containsExactly(again);
		}
	}

	@Test
	void shouldEndEveryCandidacyWhenItsClientClosesAndCloseQuietlyAfterIt() throws Exception {
		CuratorFramework client = this.clients.newClient();
		RecordingLeadershipListener events = new RecordingLeadershipListener();
		LeaderElection election = new LeaderElection(new LockEngine(client, "/locks"));
		Candidacy candidacy = election.join("jobs", events);
		Term term = candidacy.awaitTerm(WAIT).orElseThrow();
		client.close();
		assertThat(term.isActive()).isFalse();
		await().atMost(WAIT).until(() -> candidacy.state() == CandidacyState.LEFT);
		assertThat(term.isEnded()).isTrue();
		assertThat(events.await(RecordingLeadershipListener.Type.REVOKED, 1).reason())
			.isEqualTo(RevocationReason.SHUTDOWN);
		election.close();
		await().atMost(WAIT).untilAsserted(() -> assertThat(threads()).isEmpty());
	}

	/** The paths the server keeps watches on for one session ({@code wchc}). */
	private static List<String> watchedPaths(long session) throws Exception {
		String wchc = FourLetterWordMain.send4LetterWord("127.0.0.1", server.getPort(), "wchc");
		List<String> paths = new ArrayList<>();
		boolean ours = false;
		for (String line : wchc.split("\n")) {
			if (line.startsWith("0x")) {
				ours = Long.parseUnsignedLong(line.trim().substring(2), 16) == session;
			}
			else if (ours && line.startsWith("\t") && line.trim().startsWith("/zklock/leaders")) {
				paths.add(line.trim());
			}
		}
		return paths;
	}

	private static List<String> threads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter(Thread::isAlive)
			.map(Thread::getName)
			.filter((name) -> name.startsWith("zklock-candidate-") || name.startsWith("zklock-leadership-"))
			.toList();
	}

}
