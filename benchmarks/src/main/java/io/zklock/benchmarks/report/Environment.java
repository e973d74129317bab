package io.zklock.benchmarks.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

import org.springframework.boot.SpringBootVersion;

/**
 * The facts a result needs beside its figures: machine, JVM, library versions and date.
 */
public final class Environment {

	private Environment() {
	}

	/**
	 * The facts, in report order.
	 * @return name → value
	 */
	public static Map<String, String> describe() {
		Map<String, String> facts = new LinkedHashMap<>();
		facts.put("date", ZonedDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm z")));
		facts.put("machine", Runtime.getRuntime().availableProcessors() + " CPUs (nproc), " + cpuModel() + ", "
				+ memory() + " RAM");
		facts.put("OS", System.getProperty("os.name") + " " + System.getProperty("os.version") + " ("
				+ System.getProperty("os.arch") + ")");
		facts.put("JVM", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + " ("
				+ System.getProperty("java.vm.vendor") + ")");
		facts.put("zklock", version("io.zklock", "zklock-spring-boot") + " (commit "
				+ System.getProperty("bench.revision", "unknown") + ")");
		facts.put("Curator", version("org.apache.curator", "curator-recipes"));
		facts.put("ZooKeeper (client and server)", org.apache.zookeeper.Version.getVersion().split("-")[0]);
		facts.put("Spring Boot", SpringBootVersion.getVersion());
		facts.put("Spring Framework", org.springframework.core.SpringVersion.getVersion());
		facts.put("Spring Integration (ZookeeperLockRegistry)", implementationVersion(
				org.springframework.integration.zookeeper.lock.ZookeeperLockRegistry.class));
		facts.put("JMH", version("org.openjdk.jmh", "jmh-core"));
		return facts;
	}

	/**
	 * A library's version from the Maven descriptor in its jar.
	 * @param groupId the group id
	 * @param artifactId the artifact id
	 * @return the version, or {@code "unknown"}
	 */
	static String version(String groupId, String artifactId) {
		String resource = "META-INF/maven/" + groupId + "/" + artifactId + "/pom.properties";
		try (InputStream in = Environment.class.getClassLoader().getResourceAsStream(resource)) {
			if (in == null) {
				return "unknown";
			}
			Properties properties = new Properties();
			properties.load(in);
			return properties.getProperty("version", "unknown");
		}
		catch (IOException ex) {
			return "unknown";
		}
	}

	/**
	 * A library's version from its jar's manifest (Spring's jars carry no Maven descriptor).
	 * @param type a class of the library
	 * @return the version, or {@code "unknown"}
	 */
	static String implementationVersion(Class<?> type) {
		String version = type.getPackage().getImplementationVersion();
		return (version != null) ? version : "unknown";
	}

	/**
	 * The machine's load averages, to tell a quiet machine from a busy one.
	 * @return such as {@code "0.52 0.40 0.31"} (1, 5 and 15 minutes), or {@code "unknown"}
	 */
	public static String loadAverage() {
		try {
			String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
			return fields[0] + " " + fields[1] + " " + fields[2];
		}
		catch (IOException | RuntimeException ex) {
			return "unknown";
		}
	}

	private static String cpuModel() {
		try {
			for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
				if (line.startsWith("model name")) {
					return line.substring(line.indexOf(':') + 1).trim();
				}
			}
		}
		catch (IOException ex) {
			// not Linux
		}
		return "CPU model unknown";
	}

	private static String memory() {
		try {
			for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
				if (line.startsWith("MemTotal:")) {
					long kib = Long.parseLong(line.replaceAll("[^0-9]", ""));
					return String.format(java.util.Locale.ROOT, "%.1f GiB", kib / 1024.0 / 1024.0);
				}
			}
		}
		catch (IOException | NumberFormatException ex) {
			// not Linux
		}
		return "unknown";
	}

}
