package io.zklock.docs;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.zklock.annotation.LeaderContext;
import io.zklock.annotation.LeaderOnly;
import io.zklock.annotation.LeaderScoped;
import io.zklock.leadership.Term;
import io.zklock.leadership.event.LeaderChangedEvent;
import io.zklock.leadership.event.LeadershipGrantedEvent;
import io.zklock.leadership.event.LeadershipRevokedEvent;

import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.integration.leader.event.OnGrantedEvent;
import org.springframework.integration.leader.event.OnRevokedEvent;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * The Java samples of docs/leadership.md's Spring Boot section, each between {@code tag::name[]}
 * and {@code end::name[]} comments, which the page shows as they are here;
 * {@link LeadershipSamplesTests} runs them in two instances against a real server.
 */
final class LeadershipSamples {

	private LeadershipSamples() {
	}

	/** What the leader writes to: a store that keeps the newest fencing token it accepted. */
	static class Ledger {

		private final List<String> closed = new CopyOnWriteArrayList<>();

		private final List<String> open = List.of("invoice-1", "invoice-2", "invoice-3");

		public List<String> openInvoices() {
			return this.open;
		}

		public void close(String invoice, long fencingToken) {
			this.closed.add(invoice + "@" + fencingToken);
		}

		public List<String> closed() {
			return List.copyOf(this.closed);
		}

	}

	// tag::leader-only[]
	public static class NightlyClose {

		private final Ledger ledger;

		public NightlyClose(Ledger ledger) {
			this.ledger = ledger;
		}

		@Scheduled(cron = "0 0 2 * * *")
		@LeaderOnly("billing-close")   // runs on the leader of 'billing-close' only; skipped elsewhere
		public void closeTheDay() {
			Term term = LeaderContext.currentTerm().orElseThrow();
			for (String invoice : this.ledger.openInvoices()) {
				if (!term.isActive()) {
					return;                                          // revoked: the next leader carries on
				}
				this.ledger.close(invoice, term.fencingToken());     // the ledger refuses an older term's token
			}
		}

	}
	// end::leader-only[]

	/** A listener container stand-in: a lifecycle bean that consumes while it runs. */
	public static class InvoiceListenerContainer implements SmartLifecycle {

		private volatile boolean autoStartup = true;

		private volatile boolean running;

		public void setAutoStartup(boolean autoStartup) {
			this.autoStartup = autoStartup;
		}

		@Override
		public boolean isAutoStartup() {
			return this.autoStartup;
		}

		@Override
		public void start() {
			this.running = true;
		}

		@Override
		public void stop() {
			this.running = false;
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Listeners {

		// tag::leader-scoped[]
		@Bean
		@LeaderScoped("billing-close")   // started when this instance leads, stopped before the role is handed over
		InvoiceListenerContainer invoiceListener() {
			InvoiceListenerContainer container = new InvoiceListenerContainer();
			container.setAutoStartup(false);   // the leader starts it, not the application context
			return container;
		}
		// end::leader-scoped[]

	}

	/** What the event listeners heard, in order. */
	static class Heard {

		final List<String> events = new CopyOnWriteArrayList<>();

	}

	static class LeadershipEvents {

		private final Heard heard;

		LeadershipEvents(Heard heard) {
			this.heard = heard;
		}

		// tag::events[]
		@EventListener
		void granted(LeadershipGrantedEvent event) {        // after the role's leader-scoped beans started
			log("leads " + event.getRole() + " with token " + event.getTerm().fencingToken());
		}

		@EventListener
		void revoked(LeadershipRevokedEvent event) {        // after they stopped; isActive() was false before
			log("no longer leads " + event.getRole() + ": " + event.getReason());
		}

		@EventListener
		void leaderChanged(LeaderChangedEvent event) {      // followers too: who leads now
			log(event.getRole() + " is led by " + event.getLeader().map((leader) -> leader.describe()).orElse("nobody"));
		}
		// end::events[]

		private void log(String line) {
			this.heard.events.add(line);
		}

	}

	static class IntegrationEvents {

		private final Heard heard;

		IntegrationEvents(Heard heard) {
			this.heard = heard;
		}

		// tag::si-events[]
		@EventListener
		void onGranted(OnGrantedEvent event) {              // Spring Integration's, published by zklock too
			log("granted " + event.getRole() + ", leader: " + event.getContext().isLeader());
		}

		@EventListener
		void onRevoked(OnRevokedEvent event) {
			log("revoked " + event.getRole());
		}
		// end::si-events[]

		private void log(String line) {
			this.heard.events.add(line);
		}

	}

}
