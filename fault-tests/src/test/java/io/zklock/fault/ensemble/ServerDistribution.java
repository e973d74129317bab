package io.zklock.fault.ensemble;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.zklock.fault.harness.ChildJvm;

/**
 * Where a server process gets its ZooKeeper from: the test classpath (ZooKeeper 3.9.x from
 * Maven Central) or Debian's {@code zookeeper} package (3.8.x, jars under
 * {@code /usr/share/java}).
 *
 * @param name what it is, for the figures
 * @param classpath the server JVM's classpath
 * @param jvmFlags extra flags for the server JVM
 */
public record ServerDistribution(String name, String classpath, List<String> jvmFlags) {

	/** The jar Debian's {@code zookeeper} package installs. */
	public static final Path DEBIAN_JAR = Path.of("/usr/share/java/zookeeper.jar");

	/** ZooKeeper from the test classpath, logging through the test's logback configuration. */
	public static ServerDistribution maven() {
		return new ServerDistribution("ZooKeeper from Maven Central", ChildJvm.testClasspath(), List.of());
	}

	/**
	 * Debian's packaged ZooKeeper. Its jar's manifest names its dependencies in
	 * {@code /usr/share/java}; SLF4J's simple binding is added when present.
	 * @throws AssertionError if the package is not installed, saying how to install it
	 */
	public static ServerDistribution debian() {
		if (!Files.isRegularFile(DEBIAN_JAR)) {
			throw new AssertionError("Debian's zookeeper package is not installed: " + DEBIAN_JAR + " is missing. "
					+ "Install it with 'apt-get update && apt-get install -y zookeeper' (the CI script .ci/run does so "
					+ "before mvn verify); this test runs the packaged 3.8 server and must not be skipped.");
		}
		List<String> classpath = new ArrayList<>(List.of(DEBIAN_JAR.toString()));
		Path simpleLogger = Path.of("/usr/share/java/slf4j-simple.jar");
		if (Files.isRegularFile(simpleLogger)) {
			classpath.add(simpleLogger.toString());
		}
		return new ServerDistribution("Debian zookeeper package", String.join(":", classpath),
				List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"));
	}

}
