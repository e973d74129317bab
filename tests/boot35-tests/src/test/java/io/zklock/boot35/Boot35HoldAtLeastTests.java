package io.zklock.boot35;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.LockContext;
import io.zklock.annotation.OnLockFailure;
import io.zklock.annotation.SkippedCallListener;
import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.lock.HeldLock;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockListener;
import io.zklock.lock.LockTarget;
import io.zklock.lock.ReleaseResult;
import io.zklock.test.BusyLock;
import io.zklock.test.EmbeddedZooKeeper;
import io.zklock.test.TestZooKeeper;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code @DistributedLock(holdAtLeast)} on Spring Boot 3.5: two instances (two application
 * contexts, two sessions) fire the same quick {@code @Scheduled} job every 100 ms, and a run on
 * either keeps both from running it again until the hold is over; a context that closes inside
 * the hold releases the lock.
 */
@EmbeddedZooKeeper
@Timeout(60)
class Boot35HoldAtLeastTests {

	private static final Duration HOLD = Duration.ofSeconds(1);

	@Test
	void shouldNotRunTheJobAgainOnEitherInstanceInsideTheHold(TestZooKeeper zookeeper) {
		assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
		Runs runs = new Runs();
		instance(zookeeper, "a", runs).run((a) -> instance(zookeeper, "b", runs).run((b) -> {
			await().atMost(Duration.ofSeconds(30)).until(() -> runs.runs.size() >= 3);
			List<Run> started = List.copyOf(runs.runs);
			for (int i = 1; i < started.size(); i++) {
				assertThat(Duration.between(started.get(i - 1).grantedAt(), started.get(i).grantedAt()))
					.isGreaterThanOrEqualTo(HOLD);
			}
			Instant first = started.get(0).grantedAt();
			Instant second = started.get(1).grantedAt();
			assertThat(runs.skips.stream().filter((skip) -> skip.at().isAfter(first) && skip.at().isBefore(second)))
				.extracting(Skip::instance)
				.contains("a", "b");
		}));
	}

	@Test
	void shouldReleaseTheLockWhenTheContextClosesInsideTheHold(TestZooKeeper zookeeper) {
		List<ReleaseResult> released = new CopyOnWriteArrayList<>();
		LockListener releases = new LockListener() {
			@Override
			public void onReleased(LockTarget lock, long fencingToken, Duration heldFor, ReleaseResult result) {
				if (lock.lockPath().equals("boot35/long-hold")) {
					released.add(result);
				}
			}
		};
		instance(zookeeper, "a", new Runs()).withBean(LockListener.class, () -> releases).run((context) -> {
			context.getBean(ReportJob.class).longHold();
			assertThat(context.getBean(ILockByCurator.class).heldLocks()).extracting(HeldLock::lockPath)
				.contains("boot35/long-hold");
			assertThat(released).isEmpty();
			context.close();
			assertThat(released).as("released by the closing context, before its client closed")
				.containsExactly(ReleaseResult.RELEASED);
		});
		try (BusyLock elsewhere = zookeeper.holdElsewhere("boot35/long-hold")) {
			assertThat(elsewhere.isHeld()).isTrue();
		}
	}

	private static ApplicationContextRunner instance(TestZooKeeper zookeeper, String name, Runs runs) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ZkLockAutoConfiguration.class,
					TaskSchedulingAutoConfiguration.class))
			.withPropertyValues(zookeeper.propertyValues())
			.withPropertyValues("test.instance=" + name)
			.withBean(Runs.class, () -> runs)
			.withUserConfiguration(ScheduledConfiguration.class);
	}

	record Run(String instance, Instant grantedAt) {
	}

	record Skip(String instance, Instant at) {
	}

	static class Runs {

		final List<Run> runs = new CopyOnWriteArrayList<>();

		final List<Skip> skips = new CopyOnWriteArrayList<>();

	}

	static class ReportJob {

		private final String instance;

		private final Runs runs;

		ReportJob(String instance, Runs runs) {
			this.instance = instance;
			this.runs = runs;
		}

		@Scheduled(fixedRate = 100)
		@DistributedLock(path = "boot35/report", holdAtLeast = "1s", waitTime = "0", onFailure = OnLockFailure.SKIP)
		public void report() {
			this.runs.runs.add(new Run(this.instance, LockContext.currentLock().orElseThrow().acquiredAt()));
		}

		@DistributedLock(path = "boot35/long-hold", holdAtLeast = "1m")
		public void longHold() {
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	static class ScheduledConfiguration {

		@Bean
		ReportJob reportJob(@Value("${test.instance}") String instance, Runs runs) {
			return new ReportJob(instance, runs);
		}

		@Bean
		SkippedCallListener recordSkips(@Value("${test.instance}") String instance, Runs runs) {
			return (call) -> runs.skips.add(new Skip(instance, Instant.now()));
		}

	}

}
