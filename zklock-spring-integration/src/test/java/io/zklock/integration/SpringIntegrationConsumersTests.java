package io.zklock.integration;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.support.MessageBuilder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Integration's own consumers of a {@code LockRegistry} over {@link ZkLockRegistry},
 * three instances sharing a message store on one ZooKeeper server, messages sent to all three
 * at once from six threads: the aggregator releases every group exactly once and complete, and
 * {@code LockRequestHandlerAdvice} loses no update of a read–pause–write.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
@Tag("slow")
class SpringIntegrationConsumersTests {

	private static final int INSTANCES = 3;

	private TestingServer server;

	private IntegrationInstances instances;

	private IntegrationInstances.Shared shared;

	private final ExecutorService senders = Executors.newFixedThreadPool(6);

	@BeforeEach
	void start() throws Exception {
		this.server = new TestingServer(true);
		this.shared = new IntegrationInstances.Shared(this.server.getConnectString());
		this.instances = new IntegrationInstances(INSTANCES, this.shared);
	}

	@AfterEach
	void stop() throws Exception {
		this.senders.shutdownNow();
		this.instances.close();
		this.server.close();
	}

	@Test
	void shouldReleaseEveryGroupOnceAndWholeAcrossInstances() throws Exception {
		int groups = 40;
		List<Future<?>> sent = new ArrayList<>();
		for (int group = 0; group < groups; group++) {
			for (int part = 0; part < 3; part++) {
				String payload = group + "." + part;
				MessageChannel input = this.instances.contexts()
					.get((group + part) % INSTANCES)
					.getBean("aggregatorInput", MessageChannel.class);
				int id = group;
				sent.add(this.senders.submit(
						() -> input.send(MessageBuilder.withPayload(payload).setHeader("group", id).build())));
			}
		}
		for (Future<?> send : sent) {
			send.get(60, TimeUnit.SECONDS);
		}
		assertThat(this.shared.overlapped).as("groups released twice").isEmpty();
		assertThat(this.shared.releases).as("releases").hasValue(groups);
		assertThat(this.shared.released).hasSize(groups);
		this.shared.released.forEach((group, payloads) -> assertThat(payloads).as("group " + group)
			.containsExactlyInAnyOrder(group + ".0", group + ".1", group + ".2"));
		assertThat(this.shared.groupsLeft()).as("groups left in the store").isZero();
	}

	@Test
	void shouldLoseNoUpdateUnderLockRequestHandlerAdvice() throws Exception {
		int keys = 4;
		int perKey = 30;
		List<Future<?>> sent = new ArrayList<>();
		for (int i = 0; i < keys * perKey; i++) {
			MessageChannel input = this.instances.contexts().get(i % INSTANCES).getBean("adviceInput", MessageChannel.class);
			String key = "k" + (i % keys);
			sent.add(this.senders.submit(() -> input.send(MessageBuilder.withPayload("x").setHeader("key", key).build())));
		}
		for (Future<?> send : sent) {
			send.get(60, TimeUnit.SECONDS);
		}
		assertThat(this.shared.overlapped).as("keys updated by two holders at once").isEmpty();
		for (int k = 0; k < keys; k++) {
			assertThat(this.shared.counters.get("k" + k)).as("updates of k" + k).isEqualTo(perKey);
		}
	}

}
