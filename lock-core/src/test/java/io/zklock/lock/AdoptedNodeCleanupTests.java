package io.zklock.lock;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.retry.RetryNTimes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A create whose reply is lost is adopted by Curator's protected mode without a {@code Stat},
 * so the engine reads the node's {@code Stat} itself. When that read fails, or the wait runs
 * out during it, the adopted node belongs to a live session and would block every client on
 * the lock path until the process dies: every exit must delete it.
 */
@Timeout(60)
@Tag("slow")
class AdoptedNodeCleanupTests extends ZkServerTest {

	private static final String LOCKS = "/zklock/locks/jobs";

	@Test
	void shouldLeaveNoNodeWhenTheStatOfAnAdoptedNodeCannotBeRead() throws Exception {
		FaultyZooKeeper.Faults faults = new FaultyZooKeeper.Faults(LOCKS);
		faults.dropNextCreateReply.set(true);
		faults.failExists.set(100);
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(client(faults), "/locks");
		CuratorFramework observer = client(null);

		// the read fails while connected until the wait runs out: the acquire either reads the stat
		// in the end or gives up; either way, once it has returned and released, no node is left
		Optional<LockHandle> lock;
		try {
			lock = locks.tryAcquire("jobs", LockMode.EXCLUSIVE, Duration.ofSeconds(3));
		}
		catch (LockAcquisitionException ex) {
			assertThat(ex).hasMessageContaining("'jobs'");
			lock = Optional.empty();
		}
		lock.ifPresent(LockHandle::release);
		assertThat(faults.createRepliesDropped).as("a create reply was lost").hasValue(1);
		assertThat(faults.existsFailed).as("the adopted node's stat could not be read").hasPositiveValue();
		await().atMost(Duration.ofSeconds(20)).until(() -> lockNodes(observer).isEmpty());
		assertThat(rivalCanLock(observer)).as("nothing blocks others").isTrue();
	}

	@Test
	void shouldLeaveNoNodeWhenTheWaitRunsOutWhileTheStatOfAnAdoptedNodeIsRead() throws Exception {
		FaultyZooKeeper.Faults faults = new FaultyZooKeeper.Faults(LOCKS);
		faults.dropNextCreateReply.set(true);
		faults.delayExistsMillis.set(3_000);
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(client(faults), "/locks");
		CuratorFramework observer = client(null);

		Optional<LockHandle> lock = locks.tryAcquire("jobs", LockMode.EXCLUSIVE, Duration.ofMillis(500));
		assertThat(lock).as("the wait ran out during the read").isEmpty();
		assertThat(faults.createRepliesDropped).hasValue(1);
		await().atMost(Duration.ofSeconds(20)).until(() -> lockNodes(observer).isEmpty());
		assertThat(rivalCanLock(observer)).isTrue();
	}

	private boolean rivalCanLock(CuratorFramework observer) {
		return new ExclusiveLockByCurator(observer, "/locks").tryAcquire("jobs", LockMode.EXCLUSIVE, Duration.ZERO)
			.map((handle) -> handle.release() == ReleaseResult.RELEASED)
			.orElse(false);
	}

	private static List<String> lockNodes(CuratorFramework observer) throws Exception {
		return (observer.checkExists().forPath("/locks/jobs") != null) ? observer.getChildren().forPath("/locks/jobs")
				: List.of();
	}

	private CuratorFramework client(FaultyZooKeeper.Faults faults) {
		return this.clients.newClient((builder) -> {
			builder.retryPolicy(new RetryNTimes(3, 50));
			if (faults != null) {
				builder.zookeeperFactory(FaultyZooKeeper.factory(faults));
			}
		});
	}

}
