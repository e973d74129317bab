package io.zklock.autoconfigure;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.LockContext;

import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.DeferredImportSelector;
import org.springframework.context.annotation.Import;
import org.springframework.core.type.AnnotationMetadata;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * zklock-spring-boot without Curator and ZooKeeper on the class path at all, as when an
 * application excludes {@code curator-recipes}: an application with a
 * {@code @DistributedLock} method is started in a class loader that has the test class path
 * minus every Curator and ZooKeeper jar, with every auto-configuration zklock lists. It must
 * fail with zklock's analysis, not with a {@code NoClassDefFoundError}, and not start with its
 * method unlocked.
 */
@Timeout(60)
@ExtendWith(OutputCaptureExtension.class)
@Tag("slow")
class LockedMethodsWithoutCuratorTests {

	@Test
	void shouldFailClosedNamingCuratorWhenItsJarsAreAbsent(CapturedOutput output) throws Exception {
		Object failure = startWithoutCurator();
		assertThat(failure).asString().doesNotContain("NoClassDefFoundError").doesNotContain("ClassNotFound");
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("zklock found 1 @DistributedLock/@DistributedSemaphore method (Shipping.ship(String)), but "
					+ "Curator (org.apache.curator:curator-recipes) is not on the class path")
			.contains("Depend on io.zklock:zklock-spring-boot-starter");
	}

	@Test
	void shouldRunTheMethodWithoutALockWhenDisabled() throws Exception {
		assertThat(startWithoutCurator("--zklock.enabled=false")).isEqualTo("started, ship() said: zklock is "
				+ "disabled (zklock.enabled=false), so Shipping.ship(String) runs without a lock and has no fencing "
				+ "token. In code that must run both ways, use LockContext.currentLock(), empty while zklock is "
				+ "disabled; or remove zklock.enabled=false.");
	}

	private static Object startWithoutCurator(String... args) throws Exception {
		List<URL> classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
			.filter((entry) -> !isCuratorOrZooKeeper(Path.of(entry).getFileName().toString()))
			.map(LockedMethodsWithoutCuratorTests::url)
			.toList();
		ClassLoader previous = Thread.currentThread().getContextClassLoader();
		try (URLClassLoader withoutCurator = new URLClassLoader(classPath.toArray(URL[]::new),
				ClassLoader.getPlatformClassLoader())) {
			assertThat(withoutCurator.getResource("org/apache/curator/framework/CuratorFramework.class")).isNull();
			Thread.currentThread().setContextClassLoader(withoutCurator);
			return withoutCurator.loadClass(Launcher.class.getName())
				.getMethod("start", String[].class)
				.invoke(null, (Object) args);
		}
		finally {
			Thread.currentThread().setContextClassLoader(previous);
		}
	}

	private static boolean isCuratorOrZooKeeper(String fileName) {
		return fileName.startsWith("curator-") || fileName.startsWith("zookeeper-");
	}

	private static URL url(String entry) {
		try {
			return Path.of(entry).toUri().toURL();
		}
		catch (java.net.MalformedURLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** Runs in the class loader without Curator. */
	public static final class Launcher {

		private Launcher() {
		}

		/**
		 * Starts the application and calls its annotated method.
		 * @param args the application's arguments
		 * @return the start-up failure, as text, or {@code "started"} and what the method said
		 */
		public static String start(String... args) {
			SpringApplication application = new SpringApplication(LockedApplication.class);
			application.setWebApplicationType(WebApplicationType.NONE);
			application.setBannerMode(Banner.Mode.OFF);
			try (ConfigurableApplicationContext context = application.run(args)) {
				String said;
				try {
					said = String.valueOf(context.getBean(Shipping.class).ship("42"));
				}
				catch (IllegalStateException ex) {
					said = ex.getMessage();
				}
				return "started, ship() said: " + said;
			}
			catch (RuntimeException ex) {
				StringBuilder chain = new StringBuilder();
				for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
					chain.append(cause).append('\n');
				}
				return chain.toString();
			}
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(AopAutoConfiguration.class)
	@Import(ZkLockAutoConfigurations.class)
	static class LockedApplication {

		@Bean
		Shipping shipping() {
			return new Shipping();
		}

	}

	/** Every auto-configuration zklock-spring-boot lists, read by name as Spring Boot does. */
	static class ZkLockAutoConfigurations implements DeferredImportSelector, BeanClassLoaderAware {

		private ClassLoader classLoader;

		@Override
		public void setBeanClassLoader(ClassLoader classLoader) {
			this.classLoader = classLoader;
		}

		@Override
		public String[] selectImports(AnnotationMetadata metadata) {
			return ImportCandidates.load(AutoConfiguration.class, this.classLoader)
				.getCandidates()
				.stream()
				.filter((name) -> name.startsWith("io.zklock."))
				.toArray(String[]::new);
		}

	}

	static class Shipping {

		@DistributedLock(path = "shipments", key = "#id")
		public long ship(String id) {
			return LockContext.currentToken();
		}

	}

}
