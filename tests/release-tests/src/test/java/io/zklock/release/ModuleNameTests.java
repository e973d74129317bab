package io.zklock.release;

import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every published jar names its module: {@code Automatic-Module-Name} in its manifest, and that name
 * is the one the JDK gives it on the module path (not one derived from the file name, such as
 * {@code zklock.spring.boot.starter}). The jars are this module's test dependencies, packaged by the
 * reactor build before this module runs ({@code ./mvnw verify}).
 */
class ModuleNameTests {

	@ParameterizedTest
	@CsvSource({ "zklock-core, io.zklock.core", "zklock-spring-boot, io.zklock.spring.boot",
			"zklock-spring-boot-starter, io.zklock.spring.boot.starter",
			"zklock-spring-boot-starter-embedded, io.zklock.spring.boot.starter.embedded",
			"zklock-spring-boot-test, io.zklock.spring.boot.test", "zklock-test-history, io.zklock.test.history",
			"zklock-spring-integration, io.zklock.spring.integration" })
	void shouldNameItsModule(String artifactId, String moduleName) throws IOException, URISyntaxException {
		Path jar = publishedJar(artifactId);
		try (JarFile file = new JarFile(jar.toFile())) {
			assertThat(file.getManifest()).as("manifest of %s", jar).isNotNull();
			assertThat(file.getManifest().getMainAttributes().getValue(new Attributes.Name("Automatic-Module-Name")))
				.as("Automatic-Module-Name of %s", jar)
				.isEqualTo(moduleName);
		}
		Map<String, ModuleDescriptor> modules = ModuleFinder.of(jar)
			.findAll()
			.stream()
			.map(ModuleReference::descriptor)
			.collect(Collectors.toMap(ModuleDescriptor::name, (descriptor) -> descriptor));
		assertThat(modules).as("the module of %s on the module path", jar).containsOnlyKeys(moduleName);
		assertThat(modules.get(moduleName).isAutomatic()).isTrue();
	}

	/**
	 * The packaged jar of a published artifact, found by the {@code pom.properties} every Maven-built jar
	 * carries. A build that stops before 'package' ({@code ./mvnw test}) has class folders instead, and
	 * the test is skipped there.
	 */
	private static Path publishedJar(String artifactId) throws IOException, URISyntaxException {
		URL descriptor = ModuleNameTests.class.getClassLoader()
			.getResource("META-INF/maven/io.zklock/" + artifactId + "/pom.properties");
		Assumptions.assumeTrue(descriptor != null && descriptor.getProtocol().equals("jar"),
				() -> artifactId + " is not on the test class path as a jar (a build that stops before 'package'); "
						+ "run ./mvnw verify");
		Path jar = Path.of(((JarURLConnection) descriptor.openConnection()).getJarFileURL().toURI());
		Path build = Path.of(System.getProperty("zklock.build.root", "../..")).toAbsolutePath().normalize();
		assertThat(jar.toAbsolutePath().normalize()).as("the %s jar on the test class path: one of this build "
				+ "(./mvnw verify -pl tests/release-tests -am), not one installed earlier", artifactId).startsWith(build);
		return jar;
	}

}
