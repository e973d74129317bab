package io.zklock.autoconfigure;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.zklock.lock.HoldOwner;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockRequest;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code zklock.leak-detection.*} reaches the lock engine: a hold past the threshold is reported
 * with its holder, and where it was acquired unless sites are not recorded; a threshold that is
 * not positive fails start-up naming the property.
 */
@Timeout(60)
@ExtendWith(OutputCaptureExtension.class)
class LeakDetectionPropertiesTests extends ZkServerTest {

	private static final String PAST_THRESHOLD = "has been held for ";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkLockAutoConfiguration.class))
		.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString());

	@Test
	void shouldReportAHoldPastTheThresholdWithItsHolderAndWhereItWasAcquired(CapturedOutput output) {
		this.contextRunner.withPropertyValues("zklock.leak-detection.threshold=200ms").run((context) -> {
			try (LockHandle held = context.getBean(ILockByCurator.class).acquire(threadOwned("leaks/sites"))) {
				String report = awaitReport(output, "leaks/sites");
				assertThat(report).contains(", past the leak-detection threshold of 200ms: thread '"
						+ Thread.currentThread().getName() + "' holds (thread-owned) since ")
					.contains(", acquired at ");
			}
		});
	}

	@Test
	void shouldNotRecordWhereLocksWereAcquiredWhenAskedNotTo(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("zklock.leak-detection.threshold=200ms", "zklock.leak-detection.record-sites=false")
			.run((context) -> {
				try (LockHandle held = context.getBean(ILockByCurator.class).acquire(threadOwned("leaks/no-sites"))) {
					assertThat(awaitReport(output, "leaks/no-sites"))
						.contains("past the leak-detection threshold of 200ms")
						.doesNotContain("acquired at");
				}
			});
	}

	@Test
	void shouldBindTheDefaults() {
		this.contextRunner.run((context) -> {
			ZkLockProperties.LeakDetection leakDetection = context.getBean(ZkLockProperties.class)
				.getLeakDetection();
			assertThat(leakDetection.isRecordSites()).isTrue();
			assertThat(leakDetection.getThreshold()).isNull();
		});
	}

	@Test
	void shouldFailStartUpNamingAThresholdThatIsNotPositive() {
		this.contextRunner.withPropertyValues("zklock.leak-detection.threshold=0s").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("'0s'")
				.hasMessageContaining("zklock.leak-detection.threshold")
				.hasMessageContaining("it must be positive; set a duration such as '10m', or leave it unset");
		});
	}

	private static LockRequest threadOwned(String path) {
		return LockRequest.of(path, LockMode.EXCLUSIVE).ownedBy(HoldOwner.THREAD);
	}

	/** The WARN line that reports the hold of {@code lockPath}, once it is logged. */
	private static String awaitReport(CapturedOutput output, String lockPath) {
		String start = "The EXCLUSIVE lock on '" + lockPath + "' (fencing token ";
		await().atMost(Duration.ofSeconds(20))
			.until(() -> output.getOut().lines().anyMatch((line) -> line.contains(start) && line.contains(PAST_THRESHOLD)));
		return output.getOut().lines().filter((line) -> line.contains(start)).findFirst().orElseThrow();
	}

}
