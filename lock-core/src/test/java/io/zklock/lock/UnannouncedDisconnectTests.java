package io.zklock.lock;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.zklock.fixtures.BlackHoleProxy;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.zklock.lock.ZkTestSupport.ROOT;
import static io.zklock.lock.ZkTestSupport.serverLockWatches;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Locks of two engines on one Curator client through a disconnect ZooKeeper's client does not
 * announce (docs/lock-protocol.md, "A disconnect the ZooKeeper client does not announce"): a
 * waiter of one engine gives up while the connection is dead, its watch removal fails with the
 * connection, ZooKeeper drops its own {@code Disconnected} event and Curator reports nothing; the
 * lock the other engine holds must still go in doubt at once, and be held again after the
 * reconnect. The client's connection runs through a {@link BlackHoleProxy}.
 */
@Tag("slow")
class UnannouncedDisconnectTests extends ZkServerTest {

	@Test
	@Timeout(60)
	void shouldPutAnotherEnginesLockInDoubtWhenAWaitersWatchRemovalFailsWithTheConnection() throws Exception {
		try (BlackHoleProxy proxy = new BlackHoleProxy("two-engines", List.of(server.getPort()))) {
			List<ConnectionState> states = new CopyOnWriteArrayList<>();
			CuratorFramework client = this.clients.newClient((builder) -> builder.connectString(proxy.connectString()));
			client.getConnectionStateListenable().addListener((c, state) -> states.add(state));
			ExclusiveLockByCurator waiting = new ExclusiveLockByCurator(client, ROOT);
			ExclusiveLockByCurator holding = new ExclusiveLockByCurator(client, ROOT);
			LockHandle held = holding.acquire("two-engines/held", LockMode.EXCLUSIVE);
			LockHandle rival = new ExclusiveLockByCurator(this.clients.newClient(), ROOT).acquire("two-engines/busy",
					LockMode.EXCLUSIVE);
			Future<Optional<LockHandle>> waiter = this.clients
				.background(() -> waiting.tryAcquire("two-engines/busy", LockMode.EXCLUSIVE, Duration.ofSeconds(3)));
			await("the waiter watching the rival's node").atMost(Duration.ofSeconds(20))
				.until(() -> serverLockWatches(server).stream().anyMatch((path) -> path.contains("/two-engines/busy/")));

			proxy.blackHole();
			assertThat(waiter.get(20, TimeUnit.SECONDS)).as("the waiter gave up at its deadline").isEmpty();
			proxy.reset();
			await("the other engine's lock in doubt while the client is away").atMost(Duration.ofSeconds(10))
				.until(() -> held.state() == LockState.IN_DOUBT);
			assertThat(states).as("what Curator said of the disconnect").doesNotContain(ConnectionState.SUSPENDED);

			proxy.heal();
			await("the lock held again after the reconnect").atMost(Duration.ofSeconds(20))
				.until(() -> held.state() == LockState.HELD);
			held.close();
			rival.close();
		}
	}

}
