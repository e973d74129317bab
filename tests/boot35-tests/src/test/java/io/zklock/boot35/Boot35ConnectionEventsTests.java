package io.zklock.boot35;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.annotation.DistributedLock;
import io.zklock.autoconfigure.LockedMethodsAutoConfiguration;
import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.autoconfigure.metrics.ZkLockMetricsAutoConfiguration;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockAcquisitionException;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockListener;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockTarget;
import io.zklock.lock.ReleaseResult;
import io.zklock.lock.LockEngine;
import io.zklock.metrics.LockMetricsListener;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * What a Boot 3.5 application (Spring Framework 6.2's AOP and bean lifecycle) is told while its
 * ZooKeeper client is disconnected: an annotated call whose wait runs out says that the client
 * was not connected, not that the lock was busy; a held lock's {@link LockListener} beans and
 * meters see it in doubt and then confirmed, never lost, when the server comes back within the
 * session. The server is a curator-test {@link TestingServer} of this class on 127.0.0.1, since
 * the tests stop and restart it. The Boot 4 tests ({@code DisconnectedCallTests}, {@code LockLossTests},
 * {@code LockMetricsListenerTests}) cover every case.
 */
@Timeout(90)
class Boot35ConnectionEventsTests {

	private static TestingServer server;

	@BeforeAll
	static void startServer() throws Exception {
		// a fixed port (-1: one chosen now), so the restarted server is where the client looks for it
		server = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, -1, -1,
				Map.of("clientPortAddress", "127.0.0.1"), "127.0.0.1"), true);
	}

	@AfterAll
	static void stopServer() throws Exception {
		server.close();
	}

	private static ApplicationContextRunner context() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ZkLockAutoConfiguration.class,
					LockedMethodsAutoConfiguration.class, ZkLockMetricsAutoConfiguration.class))
			.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString(),
					"zklock.zookeeper.namespace=boot35-connection-events",
					"zklock.zookeeper.embedded.enabled=false");
	}

	@Test
	void shouldSayTheClientWasNotConnectedWhenTheWaitRanOut() {
		context().withPropertyValues("zklock.zookeeper.connection-timeout=1s")
			.withBean(Shipments.class)
			.run((context) -> {
				LockEngine engine = context.getBean(LockEngine.class);
				server.stop();
				try {
					Instant since = await().atMost(Duration.ofSeconds(20))
						.until(() -> engine.disconnectedSince().orElse(null), Objects::nonNull);
					assertThatExceptionOfType(LockAcquisitionException.class)
						.isThrownBy(() -> context.getBean(Shipments.class).ship("42"))
						.withMessageStartingWith("Could not acquire the EXCLUSIVE lock on 'shipments/42' within 1000 ms "
								+ "for Shipments.ship(String): the ZooKeeper client was not connected (since " + since
								+ ", ")
						.withMessageEndingWith("ms when the wait ran out): the wait ran out for the connection, not "
								+ "for the lock's holders. Check that the ensemble can be reached.");
				}
				finally {
					server.restart();
				}
			});
	}

	@Test
	void shouldTellListenersAndMetersOfADoubtThenAConfirmationWhenTheServerComesBackWithinTheSession() {
		context().withPropertyValues("zklock.zookeeper.session-timeout=30s")
			.withBean(Events.class)
			.withBean(SimpleMeterRegistry.class)
			.run((context) -> {
				LockHandle lock = context.getBean(ILockByCurator.class)
					.tryAcquire("boot35-jobs/1", LockMode.EXCLUSIVE, Duration.ZERO)
					.orElseThrow();
				Events events = context.getBean(Events.class);
				server.stop();
				try {
					await().atMost(Duration.ofSeconds(20)).until(() -> events.kinds().contains("in doubt"));
					assertThat(lock.isHeld()).as("not known to be held while disconnected").isFalse();
				}
				finally {
					server.restart();
				}
				await().atMost(Duration.ofSeconds(20)).until(() -> events.kinds().contains("confirmed"));
				assertThat(lock.isHeld()).isTrue();
				assertThat(events.kinds()).containsExactly("acquired", "in doubt", "confirmed");
				assertThat(events.events).allSatisfy((event) -> {
					assertThat(event.lock().lockPath()).isEqualTo("boot35-jobs/1");
					assertThat(event.fencingToken()).isEqualTo(lock.fencingToken());
				});
				String lockName = events.events.get(0).lock().lockName();
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.get(LockMetricsListener.IN_DOUBT).tags("lock", lockName, "mode", "exclusive")
					.counter()
					.count()).isEqualTo(1);
				assertThat(registry.get(LockMetricsListener.CONFIRMED).tags("lock", lockName, "mode", "exclusive")
					.timer()
					.count()).isEqualTo(1);
				assertThat(registry.find(LockMetricsListener.LOST).counter()).as("never lost").isNull();
				assertThat(lock.release()).isEqualTo(ReleaseResult.RELEASED);
			});
	}

	static class Shipments {

		@DistributedLock(path = "shipments", key = "#id", waitTime = "1s")
		public void ship(String id) {
		}

	}

	/** One event of a held lock. */
	record Event(String kind, LockTarget lock, long fencingToken) {
	}

	/** A listener bean of the application, recording a held lock's events. */
	static class Events implements LockListener {

		final List<Event> events = new CopyOnWriteArrayList<>();

		@Override
		public void onAcquired(LockTarget lock, long fencingToken, Duration waited) {
			this.events.add(new Event("acquired", lock, fencingToken));
		}

		@Override
		public void onInDoubt(LockTarget lock, long fencingToken, Duration heldFor) {
			this.events.add(new Event("in doubt", lock, fencingToken));
		}

		@Override
		public void onConfirmed(LockTarget lock, long fencingToken, Duration inDoubtFor) {
			this.events.add(new Event("confirmed", lock, fencingToken));
		}

		@Override
		public void onLost(LockTarget lock, long fencingToken, Duration heldFor) {
			this.events.add(new Event("lost", lock, fencingToken));
		}

		List<String> kinds() {
			return this.events.stream().map(Event::kind).toList();
		}

	}

}
