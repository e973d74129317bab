package io.zklock.integration;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import io.zklock.lock.ExclusiveLockByCurator;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.integration.config.EnableIntegration;
import org.springframework.integration.dsl.IntegrationFlow;
import org.springframework.integration.handler.advice.LockRequestHandlerAdvice;
import org.springframework.integration.jdbc.store.JdbcMessageStore;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHandler;

/**
 * Several application instances in one JVM, each a Spring context with its own ZooKeeper
 * client and {@link ZkLockRegistry}, sharing what a real fleet shares through a database: the
 * aggregator's groups (each instance its own {@code JdbcMessageStore} over one H2 database, so
 * nothing in the JVM serializes them) and the data the advised handler updates. Two flows: an
 * aggregator releasing groups of three ({@code aggregatorInput}, correlation header
 * {@code group}) and a handler under {@link LockRequestHandlerAdvice} doing a
 * read–pause–write of a counter per key ({@code adviceInput}, header {@code key}).
 */
final class IntegrationInstances implements AutoCloseable {

	/** What the instances share, and what the flows record. */
	static final class Shared {

		/** The database the instances' message stores share. */
		final DataSource database = new SimpleDriverDataSource(new org.h2.Driver(),
				"jdbc:h2:mem:aggregation-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");

		final Map<Object, List<Object>> released = new ConcurrentHashMap<>();

		final AtomicInteger releases = new AtomicInteger();

		final Map<Object, Integer> counters = new ConcurrentHashMap<>();

		final Map<Object, AtomicInteger> inside = new ConcurrentHashMap<>();

		final Set<Object> overlapped = ConcurrentHashMap.newKeySet();

		final String connectString;

		Shared(String connectString) {
			this.connectString = connectString;
			new ResourceDatabasePopulator(new ClassPathResource("org/springframework/integration/jdbc/schema-h2.sql"))
				.execute(this.database);
		}

		int groupsLeft() {
			return new JdbcMessageStore(this.database).getMessageGroupCount();
		}

		void release(Message<?> group) {
			this.releases.incrementAndGet();
			Object id = group.getHeaders().get("group");
			@SuppressWarnings("unchecked")
			List<Object> payloads = (List<Object>) group.getPayload();
			if (this.released.putIfAbsent(id, List.copyOf(payloads)) != null) {
				this.overlapped.add("group " + id + " released twice");
			}
		}

		/**
		 * Whether a group of this size is complete; takes a millisecond, the time a real release
		 * strategy or store round trip takes, in which two unlocked instances both see the group
		 * complete and release it twice.
		 */
		boolean isComplete(int size) {
			try {
				Thread.sleep(1);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return size == 3;
		}

		void increment(Object key) throws InterruptedException {
			AtomicInteger in = this.inside.computeIfAbsent(key, (k) -> new AtomicInteger());
			if (in.incrementAndGet() > 1) {
				this.overlapped.add("key " + key);
			}
			int read = this.counters.getOrDefault(key, 0);
			Thread.sleep(1); // the work between read and write, where an unlocked update is lost
			this.counters.put(key, read + 1);
			in.decrementAndGet();
		}

	}

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	IntegrationInstances(int count, Shared shared) {
		for (int i = 0; i < count; i++) {
			AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
			context.registerBean(Shared.class, () -> shared);
			context.register(InstanceConfiguration.class);
			context.refresh();
			this.contexts.add(context);
		}
	}

	List<ConfigurableApplicationContext> contexts() {
		return this.contexts;
	}

	@Override
	public void close() {
		this.contexts.forEach(ConfigurableApplicationContext::close);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableIntegration
	static class InstanceConfiguration {

		@Bean(destroyMethod = "close")
		CuratorFramework curatorFramework(Shared shared) {
			CuratorFramework client = CuratorFrameworkFactory.newClient(shared.connectString,
					new ExponentialBackoffRetry(100, 3));
			client.start();
			return client;
		}

		@Bean
		ZkLockRegistry lockRegistry(CuratorFramework client) {
			return new ZkLockRegistry(new ExclusiveLockByCurator(client, "/locks"));
		}

		@Bean
		IntegrationFlow aggregation(ZkLockRegistry registry, Shared shared) {
			return IntegrationFlow.from("aggregatorInput")
				.aggregate((aggregator) -> aggregator.messageStore(new JdbcMessageStore(shared.database))
					.lockRegistry(registry)
					.correlationStrategy((message) -> message.getHeaders().get("group"))
					.releaseStrategy((group) -> shared.isComplete(group.size()))
					.expireGroupsUponCompletion(true))
				.handle((MessageHandler) shared::release)
				.get();
		}

		@Bean
		IntegrationFlow lockedHandler(ZkLockRegistry registry, Shared shared) {
			return IntegrationFlow.from("adviceInput")
				.handle((MessageHandler) (message) -> {
					try {
						shared.increment(message.getHeaders().get("key"));
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				}, (endpoint) -> endpoint.advice(
						new LockRequestHandlerAdvice(registry, (message) -> message.getHeaders().get("key"))))
				.get();
		}

	}

}
