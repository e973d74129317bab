package io.zklock.test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.zklock.annotation.LeaderContext;
import io.zklock.annotation.LeaderOnly;
import io.zklock.annotation.LeaderScoped;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;

/**
 * An application with a leader-only job and a leader-scoped listener of role
 * {@code billing-close}, for {@link LeadershipTesterTests}.
 */
public class LeaderJobs {

	private final List<Long> tokens = new CopyOnWriteArrayList<>();

	@LeaderOnly("billing-close")
	public Long closeTheDay() {
		long token = LeaderContext.currentToken();
		this.tokens.add(token);
		return token;
	}

	public List<Long> tokens() {
		return List.copyOf(this.tokens);
	}

	/** A leader-scoped listener container stand-in. */
	@LeaderScoped("billing-close")
	public static class InvoiceListener implements SmartLifecycle {

		private volatile boolean running;

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

		@Override
		public boolean isAutoStartup() {
			return false;
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	public static class Application {

		@Bean
		LeaderJobs leaderJobs() {
			return new LeaderJobs();
		}

		@Bean
		InvoiceListener invoiceListener() {
			return new InvoiceListener();
		}

	}

}
