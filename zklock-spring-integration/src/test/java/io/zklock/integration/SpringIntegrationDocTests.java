package io.zklock.integration;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import com.example.billing.BillingLeadership;
import com.example.billing.Ledger;
import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.integration.autoconfigure.ZkLockRegistryAutoConfiguration;
import io.zklock.lock.ILockByCurator;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.integration.config.EnableIntegration;
import org.springframework.integration.dsl.IntegrationFlow;
import org.springframework.integration.handler.advice.LockRequestHandlerAdvice;
import org.springframework.integration.store.MessageGroupStore;
import org.springframework.integration.store.SimpleMessageStore;
import org.springframework.integration.support.locks.LockRegistry;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.support.MessageBuilder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The samples of docs/spring-integration.md (the regions between {@code tag::} and
 * {@code end::} comments, and the whole files of {@code com.example.billing}, which the page
 * shows byte for byte), in an application with the
 * auto-configured {@link ZkLockRegistry}: the aggregator and the advised handler run, the leader
 * initiator's grant reads the leadership's fencing token, a holder passes its fencing token to a
 * store, and an application's own registry bean replaces the auto-configured one.
 */
class SpringIntegrationDocTests {

	private static TestingServer server;

	@BeforeAll
	static void startServer() throws Exception {
		server = new TestingServer(true);
	}

	@AfterAll
	static void stopServer() throws Exception {
		server.close();
	}

	@Test
	void shouldRunTheSamplesOfTheSpringIntegrationPage() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ZkLockAutoConfiguration.class, ZkLockRegistryAutoConfiguration.class))
			.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString())
			.withUserConfiguration(DocSamples.class, BillingLeadership.class)
			.run((context) -> {
				MessageChannel orderLines = context.getBean("orderLines", MessageChannel.class);
				for (int line = 0; line < 3; line++) {
					orderLines.send(MessageBuilder.withPayload("line " + line).setHeader("orderId", "42").build());
				}
				context.getBean("stockUpdates", MessageChannel.class)
					.send(MessageBuilder.withPayload("sku-7").setHeader("sku", "sku-7").build());
				DocSamples samples = context.getBean(DocSamples.class);
				assertThat(samples.shipping.shipped).containsExactly(List.of("line 0", "line 1", "line 2"));
				assertThat(samples.inventory.updated).containsExactly("sku-7");
				await().atMost(Duration.ofSeconds(30)).until(() -> samples.ledger.token.get() > 0);
			});
	}

	@Test
	void shouldPassTheHoldsFencingTokenToTheStore() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ZkLockAutoConfiguration.class, ZkLockRegistryAutoConfiguration.class))
			.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString())
			.run((context) -> {
				ZkLockRegistry registry = context.getBean(ZkLockRegistry.class);
				OrderStore store = new OrderStore();
				String order = "order 42";
				// tag::fenced-lock[]
				FencedLock lock = registry.obtain("orders/42");
				lock.lock();
				try {
					store.write(order, lock.fencingToken());   // the store refuses tokens older than its newest
				}
				finally {
					lock.unlock();
				}
				// end::fenced-lock[]
				assertThat(store.token).isPositive();
			});
	}

	@Test
	void shouldUseTheApplicationsZkLockRegistryBeanInsteadOfTheAutoConfiguredOne() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ZkLockAutoConfiguration.class, ZkLockRegistryAutoConfiguration.class))
			.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString())
			.withUserConfiguration(MigratedConfiguration.class)
			.run((context) -> {
				assertThat(context).hasSingleBean(LockRegistry.class);
				assertThat(context.getBean(ZkLockRegistry.class).lockPath("orders")).isEqualTo("spring-integration/orders");
				assertThat(context).doesNotHaveBean("zkLockRegistry");
			});
	}

	static class OrderStore {

		long token;

		void write(String order, long fencingToken) {
			this.token = fencingToken;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MigratedConfiguration {

		// tag::registry-bean[]
		@Bean
		ZkLockRegistry lockRegistry(ILockByCurator locks) {
			return new ZkLockRegistry(locks, "spring-integration");
		}
		// end::registry-bean[]

	}

	static class Shipping {

		final List<List<String>> shipped = new CopyOnWriteArrayList<>();

		public void ship(List<String> lines) {
			this.shipped.add(lines);
		}

	}

	static class Inventory {

		final List<String> updated = new CopyOnWriteArrayList<>();

		public void update(String sku) {
			this.updated.add(sku);
		}

	}

	static class RecordingLedger implements Ledger {

		final AtomicLong token = new AtomicLong();

		@Override
		public void writeAsLeader(List<String> entries, long fencingToken) {
			this.token.set(fencingToken);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableIntegration
	@SuppressWarnings({ "rawtypes", "unchecked" })
	static class DocSamples {

		final Shipping shipping = new Shipping();

		final Inventory inventory = new Inventory();

		final RecordingLedger ledger = new RecordingLedger();

		@Bean
		Ledger ledger() {
			return this.ledger;
		}

		@Bean
		MessageGroupStore sharedStore() {
			return new SimpleMessageStore();
		}

		// the samples, as the page shows them

		// tag::flows[]
		@Bean
		IntegrationFlow orders(LockRegistry registry, MessageGroupStore sharedStore) {
			return IntegrationFlow.from("orderLines")
				.aggregate((a) -> a.messageStore(sharedStore)           // JDBC, Redis, ...: shared by the fleet
					.lockRegistry(registry)                             // the ZkLockRegistry bean
					.correlationExpression("headers.orderId")
					.releaseStrategy((group) -> group.size() == 3))
				.handle(shipping, "ship")
				.get();
		}

		@Bean
		IntegrationFlow stock(LockRegistry registry) {
			return IntegrationFlow.from("stockUpdates")
				.handle(inventory, "update",
						(e) -> e.advice(new LockRequestHandlerAdvice(registry, (m) -> m.getHeaders().get("sku"))))
				.get();
		}
		// end::flows[]

	}

}
