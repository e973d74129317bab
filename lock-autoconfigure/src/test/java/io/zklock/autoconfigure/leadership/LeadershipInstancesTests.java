package io.zklock.autoconfigure.leadership;

import java.time.Duration;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.annotation.LeaderScoped;
import io.zklock.fixtures.Sessions;
import io.zklock.leadership.CandidacyState;
import io.zklock.leadership.LeaderElection;
import io.zklock.leadership.RevocationReason;
import io.zklock.leadership.Term;
import io.zklock.leadership.event.LeadershipGrantedEvent;
import io.zklock.leadership.event.LeadershipRevokedEvent;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two instances of an application (two application contexts, two ZooKeeper sessions) that declare
 * the same role: exactly one leads and runs the leader-scoped beans; a graceful shutdown stops them
 * and then hands the role over before the old session ends; a suspended connection stops them at
 * once, and they start again when the term resumes; a lost session stops them and a new term starts
 * them.
 */
@Tag("slow")
@Timeout(90)
class LeadershipInstancesTests extends LeadershipTest {

	private final TransitionLog log = new TransitionLog();

	@Test
	void shouldElectExactlyOneOfTwoInstancesAndRunTheLeaderScopedBeansThereOnly() {
		instance("a").withBean(TransitionLog.class, () -> this.log).withUserConfiguration(Consumers.class)
			.run((a) -> instance("b").withBean(TransitionLog.class, () -> this.log).withUserConfiguration(Consumers.class)
				.run((b) -> {
					await().atMost(WAIT).until(() -> leads(a, "billing-close") || leads(b, "billing-close"));
					AssertableApplicationContext leader = leads(a, "billing-close") ? a : b;
					AssertableApplicationContext follower = (leader == a) ? b : a;
					String leaderName = (leader == a) ? "a" : "b";
					String followerName = (leader == a) ? "b" : "a";
					assertThat(leads(follower, "billing-close")).isFalse();
					LeaderElection followerElection = follower.getBean(LeaderElection.class);
					assertThat(followerElection.candidacy("billing-close").orElseThrow().state())
						.isEqualTo(CandidacyState.FOLLOWER);
					await().atMost(WAIT).until(() -> followerElection.candidacy("billing-close").orElseThrow().leader()
						.map((candidate) -> leaderName.equals(candidate.instance())).orElse(false));
					await().atMost(WAIT).until(() -> this.log.entries().contains(leaderName + ": start consumer"));
					assertThat(this.log.entries()).doesNotContain(followerName + ": start consumer",
							followerName + ": start publisher");
					assertThat(leader.getBean("consumer", RecordingLifecycle.class).isRunning()).isTrue();
					assertThat(follower.getBean("consumer", RecordingLifecycle.class).isRunning()).isFalse();
				}));
	}

	@Test
	void shouldStartTheLeaderScopedBeansInPhaseOrderAndStopThemInReverse() {
		instance("a").withBean(TransitionLog.class, () -> this.log).withUserConfiguration(Consumers.class)
			.run((a) -> {
				Term term = awaitTerm(a, "billing-close");
				await().atMost(WAIT).until(() -> this.log.entries().contains("a: granted"));
				assertThat(this.log.entries()).containsExactly("a: start consumer", "a: start publisher", "a: granted");
				a.getBean(LeaderElection.class).candidacy("billing-close").orElseThrow().stepDown(RevocationReason.UNHEALTHY);
				// a step-down returns once the role's beans stopped and its node is gone
				assertThat(this.log.entries()).containsExactly("a: start consumer", "a: start publisher", "a: granted",
						"a: stop publisher", "a: stop consumer", "a: revoked UNHEALTHY");
				assertThat(term.isEnded()).isTrue();
			});
	}

	@Test
	void shouldStopTheLeaderScopedBeansThenHandTheRoleOverBeforeTheOldSessionEndsWhenTheContextCloses()
			throws Exception {
		try (CuratorFramework aClient = client()) {
			ConfigurableApplicationContext[] aContext = new ConfigurableApplicationContext[1];
			instance("a").withBean(TransitionLog.class, () -> this.log)
				.withBean("zkLockCuratorFramework", CuratorFramework.class, () -> aClient,
						(definition) -> definition.setDestroyMethodName(""))
				.withUserConfiguration(Consumers.class)
				.run((a) -> {
					aContext[0] = a;
					Term aTerm = awaitTerm(a, "billing-close");
					instance("b").withBean(TransitionLog.class, () -> this.log).withUserConfiguration(Consumers.class)
						.run((b) -> {
							assertThat(leads(b, "billing-close")).isFalse();
							a.close();
							// a's session is open still (its client is not the context's to close): only the
							// deletion of its node after its beans stopped can have granted b
							assertThat(aClient.getZookeeperClient().isConnected()).isTrue();
							Term bTerm = awaitTerm(b, "billing-close");
							assertThat(bTerm.fencingToken()).isGreaterThan(aTerm.fencingToken());
							await().atMost(WAIT).until(() -> this.log.entries().contains("b: start consumer"));
							List<String> entries = this.log.entries();
							assertThat(entries.indexOf("a: stop consumer")).as("%s", entries).isNotNegative()
								.isLessThan(entries.indexOf("b: start consumer"));
							assertThat(entries.indexOf("a: revoked SHUTDOWN")).isLessThan(entries.indexOf("b: granted"));
						});
				});
		}
	}

	@Test
	void shouldStopTheLeaderScopedBeansAtOnceWhenTheConnectionIsSuspendedAndStartThemWhenTheTermResumes() {
		instance("a").withBean(TransitionLog.class, () -> this.log).withUserConfiguration(Consumers.class)
			.run((a) -> {
				Term term = awaitTerm(a, "billing-close");
				await().atMost(WAIT).until(() -> this.log.entries().contains("a: granted"));
				dropConnection(a);
				await().atMost(WAIT).until(() -> this.log.entries().contains("a: revoked CONNECTION_SUSPENDED"));
				List<String> entries = this.log.entries();
				assertThat(entries.indexOf("a: stop consumer")).as("%s", entries).isNotNegative()
					.isLessThan(entries.indexOf("a: revoked CONNECTION_SUSPENDED"));
				assertThat(entries.indexOf("a: stop publisher")).isLessThan(entries.indexOf("a: stop consumer"));
				// the client reconnects on the same session: the same term resumes, and the beans start again
				Term resumed = awaitTerm(a, "billing-close");
				assertThat(resumed.fencingToken()).isEqualTo(term.fencingToken());
				await().atMost(WAIT).until(() -> this.log.entries().stream().filter("a: start consumer"::equals).count() == 2);
				assertThat(a.getBean("consumer", RecordingLifecycle.class).isRunning()).isTrue();
			});
	}

	@Test
	void shouldStopTheLeaderScopedBeansWhenTheSessionIsLostAndStartThemForANewTerm() {
		instance("a").withBean(TransitionLog.class, () -> this.log).withUserConfiguration(Consumers.class)
			.run((a) -> {
				Term term = awaitTerm(a, "billing-close");
				Sessions.expire(a.getBean(CuratorFramework.class), server.getConnectString());
				await().atMost(WAIT).until(term::isEnded);
				await().atMost(WAIT).until(() -> this.log.entries().stream().filter("a: granted"::equals).count() == 2);
				Term next = awaitTerm(a, "billing-close");
				assertThat(next.fencingToken()).isGreaterThan(term.fencingToken());
				List<String> entries = this.log.entries();
				assertThat(entries).contains("a: stop consumer");
				assertThat(entries.lastIndexOf("a: start consumer")).isGreaterThan(entries.indexOf("a: stop consumer"));
			});
	}

	private CuratorFramework client() throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(server.getConnectString())
			.namespace(this.namespace)
			.sessionTimeoutMs(60_000)
			.retryPolicy(new RetryOneTime(100))
			.build();
		client.start();
		assertThat(client.blockUntilConnected(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
		return client;
	}

	/**
	 * Two leader-scoped beans of role {@code billing-close}: {@code consumer} (phase 0) on its
	 * {@code @Bean} method, {@code publisher} (phase 10) on its class; and a listener that logs the
	 * grants and revocations, after the beans started or stopped.
	 */
	@Configuration(proxyBeanMethods = false)
	static class Consumers {

		@Bean
		@LeaderScoped("billing-close")
		RecordingLifecycle consumer(TransitionLog log, @Value("${zklock.instance-id}") String instance) {
			return new RecordingLifecycle(log, instance, "consumer", 0);
		}

		@Bean
		Publisher publisher(TransitionLog log, @Value("${zklock.instance-id}") String instance) {
			return new Publisher(log, instance);
		}

		@Bean
		Transitions transitions(TransitionLog log, @Value("${zklock.instance-id}") String instance) {
			return new Transitions(log, instance);
		}

	}

	@LeaderScoped("billing-close")
	static class Publisher extends RecordingLifecycle {

		Publisher(TransitionLog log, String instance) {
			super(log, instance, "publisher", 10);
		}

	}

	static class Transitions {

		private final TransitionLog log;

		private final String instance;

		Transitions(TransitionLog log, String instance) {
			this.log = log;
			this.instance = instance;
		}

		@EventListener
		void granted(LeadershipGrantedEvent event) {
			this.log.add(this.instance + ": granted");
		}

		@EventListener
		void revoked(LeadershipRevokedEvent event) {
			this.log.add(this.instance + ": revoked " + event.getReason());
		}

	}

}
