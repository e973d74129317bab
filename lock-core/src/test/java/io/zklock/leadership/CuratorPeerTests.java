package io.zklock.leadership;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.zklock.lock.LockEngine;
import io.zklock.lock.ZkServerTest;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderSelector;
import org.apache.curator.framework.recipes.leader.LeaderSelectorListenerAdapter;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A role's lock path is an ordinary zklock lock path, so Curator peers on the same ZooKeeper path
 * share its queue: an {@code InterProcessMutex} holder keeps zklock's candidates following, and a
 * zklock leader keeps the mutex (and a {@code LeaderSelector}, built on it) waiting.
 */
@Timeout(120)
class CuratorPeerTests extends ZkServerTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	/** The role's ZooKeeper path inside the namespace: the leadership root and the role. */
	private static final String ROLE_PATH = "/leaders/reports";

	@Test
	void shouldFollowWhileACuratorMutexHoldsTheRolePathAndLeadOnceItIsReleased() throws Exception {
		InterProcessMutex mutex = new InterProcessMutex(this.clients.newClient(), ROLE_PATH);
		mutex.acquire();
		try (LeaderElection election = election()) {
			Candidacy candidacy = election.join("reports");
			await().atMost(WAIT).until(() -> election.candidates("reports").size() == 2);
			assertThat(candidacy.awaitTerm(Duration.ofMillis(300))).isEmpty();
			assertThat(candidacy.state()).isEqualTo(CandidacyState.FOLLOWER);
			await().atMost(WAIT).until(() -> candidacy.leader().isPresent());
			Candidate curator = candidacy.leader().orElseThrow();
			assertThat(curator.thisClient()).isFalse();
			assertThat(curator.host()).as("a Curator node names no zklock field").isNull();
			assertThat(curator.nodeName()).contains("-lock-");

			mutex.release();
			assertThat(candidacy.awaitTerm(WAIT)).isPresent();
		}
	}

	@Test
	void shouldKeepACuratorMutexWaitingWhileItLeadsAndLetItInOnceItLeaves() throws Exception {
		InterProcessMutex mutex = new InterProcessMutex(this.clients.newClient(), ROLE_PATH);
		try (LeaderElection election = election()) {
			Candidacy candidacy = election.join("reports");
			candidacy.awaitTerm(WAIT).orElseThrow();
			assertThat(mutex.acquire(300, TimeUnit.MILLISECONDS)).isFalse();
			candidacy.leave();
			assertThat(mutex.acquire(10, TimeUnit.SECONDS)).isTrue();
			mutex.release();
		}
	}

	@Test
	void shouldShareTheQueueWithACuratorLeaderSelector() throws Exception {
		CountDownLatch selectorLeads = new CountDownLatch(1);
		CountDownLatch selectorDone = new CountDownLatch(1);
		try (LeaderElection election = election()) {
			Candidacy candidacy = election.join("reports");
			candidacy.awaitTerm(WAIT).orElseThrow();
			CuratorFramework peer = this.clients.newClient();
			try (LeaderSelector selector = new LeaderSelector(peer, ROLE_PATH, new LeaderSelectorListenerAdapter() {
				@Override
				public void takeLeadership(CuratorFramework client) throws Exception {
					selectorLeads.countDown();
					selectorDone.await(20, TimeUnit.SECONDS);
				}
			})) {
				selector.start();
				await().atMost(WAIT).until(() -> election.candidates("reports").size() == 2);
				assertThat(selectorLeads.await(300, TimeUnit.MILLISECONDS)).isFalse();
				assertThat(candidacy.yield()).isTrue();
				assertThat(selectorLeads.await(10, TimeUnit.SECONDS)).isTrue();
				assertThat(candidacy.isLeader()).isFalse();
				selectorDone.countDown();
				assertThat(candidacy.awaitTerm(WAIT)).isPresent();
			}
		}
	}

	private LeaderElection election() {
		return new LeaderElection(new LockEngine(this.clients.newClient(), "/locks"));
	}

}
