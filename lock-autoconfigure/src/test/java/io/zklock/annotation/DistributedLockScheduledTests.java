package io.zklock.annotation;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link DistributedLock#holdAtLeast()} for scheduled jobs: two application contexts (two
 * ZooKeeper sessions, as two instances) fire the same quick {@link Scheduled} job every 100 ms
 * with {@code waitTime = "0"} and {@code onFailure = SKIP}. With a hold of one second, a run
 * on one instance keeps both instances (its own scheduler thread included) from running the job
 * again until the second is over, and the job runs again after it; without the hold, it runs
 * again at once.
 */
@Timeout(60)
@Tag("slow")
class DistributedLockScheduledTests extends ZkAnnotationTest {

	private static final Duration HOLD = Duration.ofSeconds(1);

	@Test
	void shouldNotRunTheJobAgainOnEitherInstanceInsideTheHold() {
		Runs runs = new Runs();
		instance("a", runs, "1s").run((a) -> instance("b", runs, "1s").run((b) -> {
			await().atMost(Duration.ofSeconds(30)).until(() -> runs.runs().size() >= 3);
			List<Run> started = runs.runs();
			for (int i = 1; i < started.size(); i++) {
				assertThat(Duration.between(started.get(i - 1).grantedAt(), started.get(i).grantedAt()))
					.as("grant %d after grant %d", i, i - 1)
					.isGreaterThanOrEqualTo(HOLD);
			}
			Run first = started.get(0);
			Run second = started.get(1);
			List<Skip> insideFirstHold = runs.skips()
				.stream()
				.filter((skip) -> skip.at().isAfter(first.grantedAt()) && skip.at().isBefore(second.grantedAt()))
				.toList();
			assertThat(insideFirstHold).extracting(Skip::instance)
				.as("both schedulers fired inside the hold and were skipped, the one that ran the job too")
				.contains("a", "b");
			assertThat(Duration.between(first.grantedAt(), second.grantedAt()))
				.as("runs again soon after the hold")
				.isLessThan(HOLD.plusSeconds(5));
		}));
	}

	@Test
	void shouldRunTheJobAgainAtOnceWithoutAHold() {
		Runs runs = new Runs();
		instance("a", runs, "0").run((a) -> instance("b", runs, "0").run((b) -> {
			await().atMost(Duration.ofSeconds(30)).until(() -> runs.runs().size() >= 5);
			List<Run> started = runs.runs();
			Duration shortestGap = HOLD;
			for (int i = 1; i < started.size(); i++) {
				Duration gap = Duration.between(started.get(i - 1).grantedAt(), started.get(i).grantedAt());
				shortestGap = (gap.compareTo(shortestGap) < 0) ? gap : shortestGap;
			}
			assertThat(shortestGap).as("runs follow each other well inside one hold's time: the hold is what "
					+ "spaces them out").isLessThan(HOLD.dividedBy(2));
		}));
	}

	private static ApplicationContextRunner instance(String name, Runs runs, String hold) {
		// Boot's task scheduler, as in an application: a lifecycle bean, stopped before the client closes
		return lockingContext().withConfiguration(AutoConfigurations.of(TaskSchedulingAutoConfiguration.class))
			.withBean(Runs.class, () -> runs)
			.withUserConfiguration(ScheduledConfiguration.class)
			.withPropertyValues("test.instance=" + name, "test.hold=" + hold);
	}

	/** One run of the job: on which instance, and when its lock was granted. */
	record Run(String instance, Instant grantedAt) {
	}

	/** One skipped firing of the job. */
	record Skip(String instance, Instant at) {
	}

	/** The runs and skips of both instances, in order. */
	static class Runs {

		private final List<Run> runs = new CopyOnWriteArrayList<>();

		private final List<Skip> skips = new CopyOnWriteArrayList<>();

		List<Run> runs() {
			return List.copyOf(this.runs);
		}

		List<Skip> skips() {
			return List.copyOf(this.skips);
		}

	}

	static class ReportJob {

		private final String instance;

		private final Runs runs;

		ReportJob(String instance, Runs runs) {
			this.instance = instance;
			this.runs = runs;
		}

		@Scheduled(fixedRate = 100)
		@DistributedLock(path = "scheduled/report", holdAtLeast = "${test.hold}", waitTime = "0",
				onFailure = OnLockFailure.SKIP)
		public void report() {
			this.runs.runs.add(new Run(this.instance, LockContext.currentLock().orElseThrow().acquiredAt()));
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
