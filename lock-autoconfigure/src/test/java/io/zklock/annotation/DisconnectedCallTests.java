package io.zklock.annotation;

import java.time.Instant;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.lock.LockAcquisitionException;
import io.zklock.lock.LockEngine;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * An annotated call whose wait runs out while the ensemble cannot be reached says that the
 * client was not connected, and since when, instead of reading like contention.
 */
@Timeout(60)
@Tag("slow")
class DisconnectedCallTests extends ZkAnnotationTest {

	@Test
	void shouldSayTheClientWasNotConnectedWhenTheWaitRanOut() throws Exception {
		lockingContext().withPropertyValues("zklock.zookeeper.connection-timeout=1s")
			.withBean(Shipments.class)
			.run((context) -> {
				LockEngine engine = context.getBean(LockEngine.class);
				server.stop();
				try {
					Instant since = await().atMost(java.time.Duration.ofSeconds(20))
						.until(() -> engine.disconnectedSince().orElse(null), java.util.Objects::nonNull);
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

	static class Shipments {

		@DistributedLock(path = "shipments", key = "#id", waitTime = "1s")
		public void ship(String id) {
		}

	}

}
