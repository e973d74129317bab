package io.zklock.docs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.autoconfigure.leadership.LeadershipTest;
import io.zklock.docs.LeadershipSamples.Heard;
import io.zklock.docs.LeadershipSamples.IntegrationEvents;
import io.zklock.docs.LeadershipSamples.InvoiceListenerContainer;
import io.zklock.docs.LeadershipSamples.LeadershipEvents;
import io.zklock.docs.LeadershipSamples.Ledger;
import io.zklock.docs.LeadershipSamples.Listeners;
import io.zklock.docs.LeadershipSamples.NightlyClose;
import io.zklock.leadership.LeaderElection;
import io.zklock.leadership.Term;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Runs the samples of docs/leadership.md's Spring Boot section ({@link LeadershipSamples}) in two
 * instances against a real ZooKeeper server: the role is declared by the annotations alone; the
 * leader closes the day under its token and runs the listener container, the follower does
 * neither; both hear who leads, and Spring Integration's events are published too.
 */
@Timeout(60)
class LeadershipSamplesTests extends LeadershipTest {

	private ApplicationContextRunner sample(String instance, Ledger ledger, Heard heard) {
		return instance(instance).withBean(Ledger.class, () -> ledger)
			.withBean(Heard.class, () -> heard)
			.withBean(NightlyClose.class)
			.withUserConfiguration(Listeners.class)
			.withBean(LeadershipEvents.class)
			.withBean(IntegrationEvents.class);
	}

	@Test
	void shouldCloseTheDayAndRunTheListenerOnTheLeaderOnly() {
		Ledger ledger = new Ledger();
		Heard onA = new Heard();
		Heard onB = new Heard();
		sample("a", ledger, onA).run((a) -> {
			Term term = awaitTerm(a, "billing-close");
			sample("b", ledger, onB).run((b) -> {
				b.getBean(NightlyClose.class).closeTheDay();
				assertThat(ledger.closed()).as("the follower skips the job").isEmpty();
				a.getBean(NightlyClose.class).closeTheDay();
				assertThat(ledger.closed()).containsExactly("invoice-1@" + term.fencingToken(),
						"invoice-2@" + term.fencingToken(), "invoice-3@" + term.fencingToken());
				await().atMost(WAIT).until(() -> a.getBean(InvoiceListenerContainer.class).isRunning());
				assertThat(b.getBean(InvoiceListenerContainer.class).isRunning()).isFalse();
				await().atMost(WAIT).until(() -> onB.events.stream().anyMatch((line) -> line.startsWith(
						"billing-close is led by ") && line.contains("instance 'a'")));
				assertThat(onA.events).contains("leads billing-close with token " + term.fencingToken(),
						"granted billing-close, leader: true");
				// a yields: b leads, a hears both revocations
				a.getBean(LeaderElection.class).candidacy("billing-close").orElseThrow().yield();
				awaitTerm(b, "billing-close");
				assertThat(onA.events).contains("no longer leads billing-close: YIELDED", "revoked billing-close");
				await().atMost(WAIT).until(() -> b.getBean(InvoiceListenerContainer.class).isRunning());
			});
		});
	}

}
