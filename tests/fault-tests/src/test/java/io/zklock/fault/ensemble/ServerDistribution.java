package io.zklock.fault.ensemble;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.zklock.fault.harness.ChildJvm;

/**
 * Where a server process gets its ZooKeeper from: the test classpath (ZooKeeper 3.9.x from
 * Maven Central) or Debian's {@code zookeeper} package (3.8.x, its jars found through
 * {@code dpkg-query}).
 *
 * @param name what it is, for the figures
 * @param classpath the server JVM's classpath
 * @param jvmFlags extra flags for the server JVM
 */
public record ServerDistribution(String name, String classpath, List<String> jvmFlags) {

	/** The Debian package of the ZooKeeper server; its jar comes with {@code libzookeeper-java}. */
	public static final String DEBIAN_PACKAGE = "zookeeper";

	/** ZooKeeper from the test classpath, logging through the test's logback configuration. */
	public static ServerDistribution maven() {
		return new ServerDistribution("ZooKeeper from Maven Central", ChildJvm.testClasspath(), List.of());
	}

	/**
	 * Debian's packaged ZooKeeper: the {@code zookeeper.jar} that {@code dpkg-query} lists for
	 * the {@code zookeeper} and {@code libzookeeper-java} packages. Its manifest names its
	 * dependencies next to it; SLF4J's simple binding is added when its package is installed.
	 * @throws AssertionError if the package is not installed, saying how to install it; this test
	 * runs the packaged 3.8 server and is never skipped
	 */
	public static ServerDistribution debian() {
		Path jar = DebianPackages.files(DEBIAN_PACKAGE, "libzookeeper-java")
			.stream()
			.filter((file) -> file.getFileName().toString().equals("zookeeper.jar")
					&& file.getParent().getFileName().toString().equals("java"))
			.findFirst()
			.orElseThrow(() -> new AssertionError("Debian's zookeeper package is installed but lists no "
					+ "java/zookeeper.jar: reinstall it with 'apt-get install -y --reinstall zookeeper "
					+ "libzookeeper-java'"));
		List<String> classpath = new ArrayList<>(List.of(jar.toString()));
		Path simpleLogger = jar.resolveSibling("slf4j-simple.jar");
		if (Files.isRegularFile(simpleLogger)) {
			classpath.add(simpleLogger.toString());
		}
		return new ServerDistribution("Debian zookeeper package", String.join(":", classpath),
				List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"));
	}

}
