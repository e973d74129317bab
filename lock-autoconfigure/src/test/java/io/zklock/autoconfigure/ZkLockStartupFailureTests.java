package io.zklock.autoconfigure;

import java.time.Duration;
import java.util.Arrays;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.LeaderOnly;
import io.zklock.autoconfigure.leadership.LeadershipAutoConfiguration;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.DefaultResourceLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What a user reads when zklock stops an application from starting: whole applications
 * started with {@link SpringApplication}, at Spring Boot's default {@code INFO} level, their
 * console output captured. Each failure is one failure analysis (description and action),
 * with no stack trace and no {@code Caused by} chain; {@code docs/troubleshooting.md} quotes
 * the same messages.
 */
@Timeout(60)
@ExtendWith(OutputCaptureExtension.class)
@Tag("slow")
class ZkLockStartupFailureTests extends ZkServerTest {

	@Test
	void shouldReportAnUnreachableEnsembleWithoutTheClientsStackTraces(CapturedOutput output) {
		long started = System.nanoTime();
		failToStart(ZkLockConfiguration.class, "--zklock.zookeeper.connect-string=127.0.0.1:1",
				"--zklock.zookeeper.block-until-connected=3s", "--zklock.zookeeper.connection-timeout=1s");
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(20));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Could not connect to the ZooKeeper ensemble at '127.0.0.1:1' within 3000 ms "
					+ "(127.0.0.1:1: connection refused).")
			.contains("raise zklock.zookeeper.block-until-connected")
			.doesNotContain("java.net.ConnectException");
		// the client's own warnings (a WARN per refused connect, with its stack trace) stay out; its INFO that
		// the event thread shut down may or may not fall inside the captured output, as the close's timing goes
		assertThat(output.getAll().lines().filter((line) -> line.contains("ClientCnxn") && !line.contains(" INFO ")))
			.as("ClientCnxn lines other than INFO")
			.isEmpty();
		assertNoStackTrace(output);
	}

	@Test
	void shouldLogTheWaitForTheEnsembleOnceAtItsStart(CapturedOutput output) {
		failToStart(ZkLockConfiguration.class, "--zklock.zookeeper.connect-string=127.0.0.1:1",
				"--zklock.zookeeper.block-until-connected=1s", "--zklock.zookeeper.connection-timeout=500ms");
		String waiting = "Connecting to the ZooKeeper ensemble at '127.0.0.1:1'; start-up waits up to 1000 ms for it "
				+ "(zklock.zookeeper.block-until-connected).";
		assertThat(output).containsOnlyOnce(waiting).contains("APPLICATION FAILED TO START");
		assertThat(output.getOut().indexOf(waiting)).isLessThan(output.getOut().indexOf("APPLICATION FAILED TO START"));
	}

	@Test
	void shouldFailAtOnceNamingTheBadPartOfTheConnectString(CapturedOutput output) {
		long started = System.nanoTime();
		failToStart(ZkLockConfiguration.class, "--zklock.zookeeper.connect-string=not-a-host:notaport");
		// block-until-connected stays at its default of 30 s: nothing waits for it
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
		assertThat(output)
			.contains("Invalid value 'not-a-host:notaport' for configuration property "
					+ "'zklock.zookeeper.connect-string' (originating from '\"zklock.zookeeper.connect-string\" from "
					+ "property source \"commandLineArgs\"'): in server 'not-a-host:notaport', port 'notaport' is not "
					+ "a number; write host:port pairs separated by commas")
			.contains("Update 'zklock.zookeeper.connect-string' in \"zklock.zookeeper.connect-string\" from property "
					+ "source \"commandLineArgs\".");
		assertNoStackTrace(output);
	}

	@Test
	void shouldNameAMistypedPropertyAndTheOneMeantInOneAnalysis(CapturedOutput output) {
		failToStart(ZkLockConfiguration.class, "--zklock.zookeper.connect-string=" + server.getConnectString());
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("zklock has no property 'zklock.zookeper.connect-string' (originating from "
					+ "'\"zklock.zookeper.connect-string\" from property source \"commandLineArgs\"'), so its value would "
					+ "be ignored: did you mean zklock.zookeeper.connect-string?")
			.contains("Rename it to zklock.zookeeper.connect-string in \"zklock.zookeper.connect-string\" from property "
					+ "source \"commandLineArgs\", or remove it.")
			.doesNotContain("Connecting to the ZooKeeper ensemble");
		assertNoStackTrace(output);
	}

	@Test
	void shouldRefuseAnUnresolvedCredentialsPlaceholderBeforeCreatingTheLockRoot(CapturedOutput output)
			throws Exception {
		failToStart(ZkLockConfiguration.class, "--zklock.zookeeper.connect-string=" + server.getConnectString(),
				"--zklock.root-path=/unresolved-credentials",
				"--zklock.zookeeper.auth.credentials=${ZK_LOCK_TEST_CREDENTIALS_UNSET}");
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("The value of zklock.zookeeper.auth.credentials (originating from "
					+ "'\"zklock.zookeeper.auth.credentials\" from property source \"commandLineArgs\"') holds the "
					+ "placeholder '${ZK_LOCK_TEST_CREDENTIALS_UNSET}', which nothing resolves: zklock would take the "
					+ "text '${ZK_LOCK_TEST_CREDENTIALS_UNSET}' as the value.")
			.contains("Set ZK_LOCK_TEST_CREDENTIALS_UNSET (an environment variable or a property) for the application, "
					+ "or change zklock.zookeeper.auth.credentials in \"zklock.zookeeper.auth.credentials\" from "
					+ "property source \"commandLineArgs\".")
			.doesNotContain("Connecting to the ZooKeeper ensemble");
		try (CuratorFramework client = CuratorFrameworkFactory.newClient(server.getConnectString(),
				new RetryOneTime(100))) {
			client.start();
			assertThat(client.checkExists().forPath("/zklock/unresolved-credentials")).as("lock root").isNull();
		}
		assertNoStackTrace(output);
	}

	@Test
	void shouldListEveryUnresolvedPlaceholderAndNeverPrintAResolvedCredential(CapturedOutput output) {
		failToStart(ZkLockConfiguration.class, "--zklock.zookeeper.connect-string=" + server.getConnectString(),
				"--zklock.zookeeper.auth.credentials=app:s3cret-${ZK_LOCK_TEST_SUFFIX}",
				"--ZK_LOCK_TEST_SUFFIX=resolved-part", "--zklock.instance-id=${ZK_LOCK_TEST_HOST_UNSET}",
				"--zklock.root-path=/locks/${ZK_LOCK_TEST_TEAM_UNSET:ops}/${ZK_LOCK_TEST_APP_UNSET}");
		assertThat(output)
			.contains("These zklock properties hold placeholders that nothing resolves, so zklock would take their "
					+ "text as their values:")
			.contains("- zklock.instance-id (originating from '\"zklock.instance-id\" from property source "
					+ "\"commandLineArgs\"'): '${ZK_LOCK_TEST_HOST_UNSET}'")
			.contains("- zklock.root-path (originating from '\"zklock.root-path\" from property source "
					+ "\"commandLineArgs\"'): '${ZK_LOCK_TEST_APP_UNSET}'")
			.contains("Set ZK_LOCK_TEST_HOST_UNSET, ZK_LOCK_TEST_APP_UNSET (environment variables or properties) for the "
					+ "application, or change these properties.")
			.doesNotContain("zklock.zookeeper.auth.credentials")
			.doesNotContain("s3cret")
			.doesNotContain("resolved-part");
		assertNoStackTrace(output);
	}

	@Test
	void shouldNameABadNamespaceAndItsFixInOneAnalysis(CapturedOutput output) {
		failToStart(ZkLockConfiguration.class, "--zklock.zookeeper.connect-string=" + server.getConnectString(),
				"--zklock.zookeeper.namespace=/orders");
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Invalid value '/orders' for configuration property 'zklock.zookeeper.namespace' (originating "
					+ "from '\"zklock.zookeeper.namespace\" from property source \"commandLineArgs\"'): it starts with "
					+ "'/', and a namespace is a path below the ensemble's root written without a leading or trailing "
					+ "'/'; write 'orders'.")
			.contains("Update 'zklock.zookeeper.namespace' in \"zklock.zookeeper.namespace\" from property source "
					+ "\"commandLineArgs\".")
			.doesNotContain("Invalid namespace")
			.doesNotContain("Caused by");
		assertNoStackTrace(output);
	}

	@Test
	void shouldSayOnceHowToWriteAConnectStringGivenAsAUrl(CapturedOutput output) {
		failToStart(ZkLockConfiguration.class, "--zklock.zookeeper.connect-string=zk://zk1:2181");
		assertThat(output)
			.contains("Invalid value 'zk://zk1:2181' for configuration property 'zklock.zookeeper.connect-string' "
					+ "(originating from '\"zklock.zookeeper.connect-string\" from property source \"commandLineArgs\"'): "
					+ "it is a URL, and a connect string has no scheme ('zk://'); write host:port pairs separated by "
					+ "commas, optionally followed by a chroot path, such as 'zk1:2181,zk2:2181,zk3:2181' or "
					+ "'zk1:2181/apps', or set zklock.zookeeper.embedded.enabled=true for an in-process server.");
		String description = output.getOut().substring(output.getOut().indexOf("Description:"));
		assertThat(description).containsOnlyOnce("host:port");
		assertNoStackTrace(output);
	}

	@Test
	void shouldEchoAPropertyValueAsWrittenWithItsLine(CapturedOutput output) {
		failToStart(ZkLockConfiguration.class, "--zklock.zookeeper.connect-string=" + server.getConnectString(),
				"--spring.config.location=classpath:io/zklock/autoconfigure/relaxed-names.yml");
		assertThat(output)
			.contains("Invalid value '-1s' for configuration property 'zklock.zookeeper.session-timeout' "
					+ "(originating from 'class path resource [io/zklock/autoconfigure/relaxed-names.yml] - 4:21'): "
					+ "it is negative; set a duration such as '60s'.")
			.contains("Update 'zklock.zookeeper.session-timeout' in class path resource "
					+ "[io/zklock/autoconfigure/relaxed-names.yml] - 4:21.")
			.doesNotContain("PT-1S");
		assertNoStackTrace(output);
	}

	@Test
	void shouldEchoTheDefaultWaitTimeAsWritten(CapturedOutput output) {
		failToStart(ZkLockConfiguration.class, "--zklock.zookeeper.connect-string=" + server.getConnectString(),
				"--zklock.default-wait-time=-250ms");
		assertThat(output).contains("Invalid value '-250ms' for configuration property 'zklock.default-wait-time'")
			.contains("it is negative; set '0' to try once, or a duration such as '30s'.")
			.doesNotContain("PT-0.25S");
		assertNoStackTrace(output);
	}

	@Test
	void shouldReportAnInvalidAnnotationFoundWhileProxyingAsOneAnalysis(CapturedOutput output) {
		failToStart(InvalidAnnotationConfiguration.class,
				"--zklock.zookeeper.connect-string=" + server.getConnectString());
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("@DistributedLock on Shipping.ship(String) has a negative waitTime '-1s'.")
			.contains("Use '0' to try once, or a positive duration such as '5s'.")
			.doesNotContain("Caused by");
		assertNoStackTrace(output);
	}

	@Test
	void shouldExplainThatAFinalClassCannotBeProxied(CapturedOutput output) {
		failToStart(FinalClassConfiguration.class, "--zklock.zookeeper.connect-string=" + server.getConnectString());
		assertThat(output).contains("Bean 'shipping' cannot be proxied for its 1 @DistributedLock/@DistributedSemaphore "
				+ "method (SealedShipping.ship(String)): its class " + SealedShipping.class.getName() + " is final")
			.contains("Make the class non-final (in Kotlin: open, or the kotlin-spring compiler plugin)");
		assertNoStackTrace(output);
	}

	@Test
	void shouldFailClosedNamingCuratorWhenItIsMissing(CapturedOutput output) {
		SpringApplication application = application(LockedWithoutCuratorConfiguration.class);
		application.setResourceLoader(new DefaultResourceLoader(new FilteredClassLoader("org.apache.curator")));
		assertThatExceptionOfType(Exception.class).isThrownBy(() -> application.run());
		assertThat(output)
			.contains("zklock found 1 @DistributedLock/@DistributedSemaphore method (ValidShipping.ship(String)), but "
					+ "Curator (org.apache.curator:curator-recipes) is not on the class path")
			.contains("Depend on io.zklock:zklock-spring-boot-starter")
			.contains("set zklock.enabled=false");
		assertNoStackTrace(output);
	}

	@Test
	void shouldExplainThatAFinalClassCannotBeProxiedForItsLeaderOnlyMethods(CapturedOutput output) {
		failToStart(FinalLeaderClassConfiguration.class,
				"--zklock.zookeeper.connect-string=" + server.getConnectString());
		assertThat(output).contains("Bean 'closer' cannot be proxied for its 1 @LeaderOnly method "
				+ "(SealedCloser.close()): its class " + SealedCloser.class.getName() + " is final, and the class-based "
				+ "proxy that runs them only on the leader of their role subclasses it.")
			.contains("Make the class non-final (in Kotlin: open, or the kotlin-spring compiler plugin)");
		assertNoStackTrace(output);
	}

	@Test
	void shouldReportAnInvalidRoleFoundWhileProxyingAsOneAnalysis(CapturedOutput output) {
		failToStart(InvalidRoleConfiguration.class, "--zklock.zookeeper.connect-string=" + server.getConnectString());
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("@LeaderOnly on InvalidRoleCloser.close() has an invalid role 'billing/../close': ")
			.contains("Write the role as a lock path under the leadership root (zklock.leadership.root-path=/leaders)")
			.doesNotContain("Caused by");
		assertNoStackTrace(output);
	}

	private static void failToStart(Class<?> configuration, String... args) {
		String[] all = Arrays.copyOf(args, args.length + 1);
		all[args.length] = "--logging.level.root=INFO";
		assertThatExceptionOfType(Exception.class).isThrownBy(() -> application(configuration).run(all));
	}

	private static SpringApplication application(Class<?> configuration) {
		SpringApplication application = new SpringApplication(configuration);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.setBannerMode(org.springframework.boot.Banner.Mode.OFF);
		return application;
	}

	private static void assertNoStackTrace(CapturedOutput output) {
		assertThat(output.getOut().lines().filter((line) -> line.matches("\\s+at .*"))).isEmpty();
		assertThat(output.getErr().lines().filter((line) -> line.matches("\\s+at .*"))).isEmpty();
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ AopAutoConfiguration.class, ZkLockAutoConfiguration.class,
			LockedMethodsAutoConfiguration.class })
	static class ZkLockConfiguration {

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ AopAutoConfiguration.class, ZkLockAutoConfiguration.class,
			LockedMethodsAutoConfiguration.class })
	static class InvalidAnnotationConfiguration {

		// created first, so the invalid bean fails as its dependency, one BeanCreationException deeper
		@Bean
		Checkout checkout(Shipping shipping) {
			return new Checkout(shipping);
		}

		@Bean
		Shipping shipping() {
			return new Shipping();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ AopAutoConfiguration.class, ZkLockAutoConfiguration.class,
			LockedMethodsAutoConfiguration.class })
	static class LockedWithoutCuratorConfiguration {

		@Bean
		ValidShipping shipping() {
			return new ValidShipping();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ AopAutoConfiguration.class, ZkLockAutoConfiguration.class,
			LockedMethodsAutoConfiguration.class })
	static class FinalClassConfiguration {

		@Bean
		SealedShipping shipping() {
			return new SealedShipping();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ AopAutoConfiguration.class, ZkLockAutoConfiguration.class,
			LeadershipAutoConfiguration.class, LockedMethodsAutoConfiguration.class })
	static class FinalLeaderClassConfiguration {

		@Bean
		SealedCloser closer() {
			return new SealedCloser();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ AopAutoConfiguration.class, ZkLockAutoConfiguration.class,
			LeadershipAutoConfiguration.class, LockedMethodsAutoConfiguration.class })
	static class InvalidRoleConfiguration {

		@Bean
		InvalidRoleCloser closer() {
			return new InvalidRoleCloser();
		}

	}

	static final class SealedCloser {

		@LeaderOnly("billing-close")
		public void close() {
		}

	}

	static class InvalidRoleCloser {

		@LeaderOnly("billing/../close")
		public void close() {
		}

	}

	static final class SealedShipping {

		@DistributedLock(path = "shipments", key = "#id")
		public void ship(String id) {
		}

	}

	static class Shipping {

		@DistributedLock(path = "shipments", key = "#id", waitTime = "-1s")
		public void ship(String id) {
		}

	}

	static class ValidShipping {

		@DistributedLock(path = "shipments", key = "#id")
		public void ship(String id) {
		}

	}

	record Checkout(Shipping shipping) {
	}

}
