package io.zklock.lock.modulepath;

import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged zklock-core jar on the module path: it is the automatic module
 * {@code io.zklock.core}, which provides no service (its API constructs its engine directly, so a
 * jar that drops service files loses nothing), and a small named module that requires it compiles
 * with {@code javac --module-path} and locks with {@code java --module-path} against a real ZooKeeper server. Run by maven-failsafe-plugin after
 * {@code package}, with the jar and the runtime class path as system properties.
 */
@Timeout(120)
@Tag("slow")
class ModulePathTests {

	/**
	 * Jars that go on the module path; every other runtime dependency stays on the class path.
	 * ZooKeeper must: its two jars split packages ({@code org.apache.zookeeper.server.quorum} is in
	 * both), which the module system refuses.
	 */
	private static final List<String> MODULES = List.of("curator-client-", "curator-framework-", "curator-recipes-",
			"slf4j-api-", "jspecify-");

	@TempDir
	Path work;

	@Test
	void shouldBeTheAutomaticModuleIoZklockCoreWithoutServices() {
		ModuleReference core = ModuleFinder.of(coreJar()).findAll().iterator().next();
		ModuleDescriptor descriptor = core.descriptor();
		assertThat(descriptor.name()).isEqualTo("io.zklock.core");
		assertThat(descriptor.isAutomatic()).isTrue();
		assertThat(descriptor.provides()).isEmpty();
	}

	@Test
	void shouldLockFromANamedModuleOnTheModulePath() throws Exception {
		Path source = this.work.resolve("src");
		write(source.resolve("module-info.java"), """
				module zklock.demo {
					requires io.zklock.core;
					requires curator.framework;
					requires curator.client;
				}
				""");
		write(source.resolve("demo/Main.java"), """
				package demo;

				import java.util.concurrent.ExecutorService;
				import java.util.concurrent.Executors;
				import java.util.concurrent.TimeUnit;

				import io.zklock.lock.ExclusiveLockByCurator;
				import io.zklock.lock.ILockByCurator;
				import io.zklock.lock.LockHandle;
				import io.zklock.lock.LockMode;
				import org.apache.curator.framework.CuratorFramework;
				import org.apache.curator.framework.CuratorFrameworkFactory;
				import org.apache.curator.retry.RetryOneTime;

				public class Main {

					public static void main(String[] args) throws Exception {
						ExecutorService safeService = Executors.newSingleThreadExecutor();
						try (CuratorFramework client = CuratorFrameworkFactory.builder().connectString(args[0])
							.retryPolicy(new RetryOneTime(100)).runSafeService(safeService).build()) {
							client.start();
							if (!client.blockUntilConnected(30, TimeUnit.SECONDS)) {
								throw new IllegalStateException("not connected");
							}
							ExclusiveLockByCurator locks = new ExclusiveLockByCurator(client, "/locks");
							try (LockHandle lock = locks.acquire("module-path/demo", LockMode.EXCLUSIVE)) {
								Class<?> engine = locks.engine().getClass();
								System.out.println("module " + ILockByCurator.class.getModule().getName() + " locked '"
										+ lock.lockPath() + "', fencing token " + lock.fencingToken() + ", engine "
										+ engine.getName() + " from module " + engine.getModule().getName());
							}
						}
						finally {
							safeService.shutdownNow();
						}
					}

				}
				""");
		List<Path> runtime = runtimeClassPath();
		List<Path> modules = new ArrayList<>(List.of(coreJar()));
		List<Path> classPath = new ArrayList<>();
		for (Path jar : runtime) {
			String name = jar.getFileName().toString();
			(MODULES.stream().anyMatch(name::startsWith) ? modules : classPath).add(jar);
		}
		Path classes = this.work.resolve("classes");
		JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
		int compiled = javac.run(null, null, null, "--module-path", join(modules), "--class-path", join(classPath),
				"-d", classes.toString(), source.resolve("module-info.java").toString(),
				source.resolve("demo/Main.java").toString());
		assertThat(compiled).as("javac --module-path").isZero();

		try (TestingServer server = new TestingServer()) {
			// an automatic module declares no 'requires': explicit modules it needs (slf4j-api's
			// org.slf4j) are resolved only when added, here with everything on the module path
			List<String> command = new ArrayList<>(List.of(javaLauncher(), "--module-path",
					classes + java.io.File.pathSeparator + join(modules), "--add-modules", "ALL-MODULE-PATH",
					"--class-path", join(classPath), "--module", "zklock.demo/demo.Main", server.getConnectString()));
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			boolean exited = process.waitFor(90, TimeUnit.SECONDS);
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (!exited) {
				process.destroyForcibly();
			}
			assertThat(exited).as("the program ended; its output:%n%s", output).isTrue();
			assertThat(process.exitValue()).as("exit code; output:%n%s", output).isZero();
			assertThat(output).contains("module io.zklock.core locked 'module-path/demo', fencing token ")
				.contains("engine io.zklock.lock.LockEngine from module io.zklock.core");
		}
	}

	private static Path coreJar() {
		Path jar = Path.of(required("zklock.core.jar"));
		assertThat(jar).as("the packaged zklock-core jar").isRegularFile();
		return jar;
	}

	private static List<Path> runtimeClassPath() throws IOException {
		String classPath = Files.readString(Path.of(required("zklock.core.runtime-classpath-file"))).trim();
		return Arrays.stream(classPath.split(java.io.File.pathSeparator)).map(Path::of).toList();
	}

	private static String required(String property) {
		String value = System.getProperty(property);
		assertThat(value).as("system property %s (set by lock-core's failsafe configuration)", property).isNotBlank();
		return value;
	}

	private static String javaLauncher() {
		return Path.of(System.getProperty("java.home"), "bin", "java").toString();
	}

	private static String join(List<Path> paths) {
		return paths.stream().map(Path::toString).collect(Collectors.joining(java.io.File.pathSeparator));
	}

	private static void write(Path file, String text) throws IOException {
		Files.createDirectories(file.getParent());
		Files.writeString(file, text);
	}

}
