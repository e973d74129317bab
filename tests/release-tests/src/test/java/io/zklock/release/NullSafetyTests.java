package io.zklock.release;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Null-safety as the build enforces it: every main package of the published modules is
 * {@code @NullMarked}, and NullAway, with the flags the parent pom gives the main code's compilation
 * and the JVM flags of {@code .mvn/jvm.config}, fails a {@code @NullMarked} class that returns null
 * from a non-null method or dereferences a {@code @Nullable} return. The fixtures are compiled by this
 * JDK's {@code javac} in a child process, with Error Prone and NullAway from this module's test class
 * path (the versions the parent pom names).
 */
class NullSafetyTests {

	/** The main code of the published modules (lock-autoconfigure/boot3 is folded into lock-autoconfigure). */
	private static final List<String> PUBLISHED = List.of("lock-core", "lock-autoconfigure", "lock-autoconfigure/boot3",
			"zklock-spring-boot-test", "zklock-spring-integration", "zklock-test-history");

	private static final Path BUILD = Path.of(System.getProperty("zklock.build.root", "../..")).toAbsolutePath().normalize();

	@Test
	void everyMainPackageOfThePublishedModulesIsNullMarked() throws IOException {
		List<Path> packages = new ArrayList<>();
		for (String module : PUBLISHED) {
			Path sources = BUILD.resolve(module).resolve("src/main/java");
			try (Stream<Path> files = Files.walk(sources)) {
				files.filter((file) -> file.toString().endsWith(".java"))
					.map(Path::getParent)
					.distinct()
					.forEach(packages::add);
			}
		}
		assertThat(packages).hasSize(32);
		for (Path dir : packages) {
			Path packageInfo = dir.resolve("package-info.java");
			assertThat(packageInfo).as("package-info of %s", BUILD.relativize(dir)).exists();
			assertThat(Files.readString(packageInfo)).as("%s", BUILD.relativize(packageInfo))
				.contains("@NullMarked\npackage ")
				.contains("import org.jspecify.annotations.NullMarked;");
		}
	}

	@Test
	void nullAwayFailsANullReturnedFromANonNullMethod(@TempDir Path dir) throws Exception {
		Compilation compilation = compile(dir, """
				package fixture;

				class Names {

					String name() {
						return null;
					}

				}
				""");
		assertThat(compilation.exitCode()).as(compilation.output()).isNotZero();
		assertThat(compilation.output()).contains("Names.java:6: error: [NullAway] returning @Nullable expression "
				+ "from method with @NonNull return type");
	}

	@Test
	void nullAwayFailsADereferenceOfANullableReturn(@TempDir Path dir) throws Exception {
		Compilation compilation = compile(dir, """
				package fixture;

				import org.jspecify.annotations.Nullable;

				class Names {

					@Nullable String find() {
						return null;
					}

					int length() {
						return find().length();
					}

				}
				""");
		assertThat(compilation.exitCode()).as(compilation.output()).isNotZero();
		assertThat(compilation.output()).contains("Names.java:12: error: [NullAway] dereferenced expression 'find()' "
				+ "is @Nullable");
	}

	/** The same fixture with the null handled compiles: the failures above are NullAway's, not the setup's. */
	@Test
	void nullAwayPassesANullableReturnReadAsNullable(@TempDir Path dir) throws Exception {
		Compilation compilation = compile(dir, """
				package fixture;

				import org.jspecify.annotations.Nullable;

				class Names {

					@Nullable String find() {
						return null;
					}

					int length() {
						String found = find();
						return (found != null) ? found.length() : 0;
					}

				}
				""");
		assertThat(compilation.exitCode()).as(compilation.output()).isZero();
		assertThat(dir.resolve("classes/fixture/Names.class")).exists();
	}

	/**
	 * Compiles {@code fixture.Names} in a {@code @NullMarked} package as the build compiles main code: the
	 * parent pom's compiler arguments of {@code default-compile} and the JVM flags of {@code .mvn/jvm.config}.
	 */
	private static Compilation compile(Path dir, String source) throws Exception {
		Path sources = Files.createDirectories(dir.resolve("src/fixture"));
		Files.writeString(sources.resolve("package-info.java"),
				"@NullMarked\npackage fixture;\n\nimport org.jspecify.annotations.NullMarked;\n");
		Files.writeString(sources.resolve("Names.java"), source);
		String classPath = System.getProperty("java.class.path");
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "javac").toString());
		for (String flag : Files.readAllLines(BUILD.resolve(".mvn/jvm.config"))) {
			if (!flag.isBlank()) {
				command.add("-J" + flag.strip().replace(' ', '='));
			}
		}
		command.addAll(List.of("--release", "17", "-d", dir.resolve("classes").toString(), "-cp", classPath,
				"-processorpath", classPath));
		List<String> buildArgs = mainCompilerArgs();
		assertThat(buildArgs).as("the parent pom's compiler arguments of default-compile")
			.anyMatch((arg) -> arg.startsWith("-Xplugin:ErrorProne") && arg.contains("-Xep:NullAway:ERROR"));
		command.addAll(buildArgs);
		command.add(sources.resolve("package-info.java").toString());
		command.add(sources.resolve("Names.java").toString());
		Process javac = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(javac.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(javac.waitFor(2, TimeUnit.MINUTES)).as("javac ended").isTrue();
		return new Compilation(javac.exitValue(), output);
	}

	/** The {@code compilerArgs} of {@code default-compile} in the parent pom's build plugins. */
	private static List<String> mainCompilerArgs() throws Exception {
		Document pom = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(BUILD.resolve("pom.xml").toFile());
		Element plugins = child(child(pom.getDocumentElement(), "build"), "plugins");
		List<String> args = new ArrayList<>();
		for (Element plugin : children(plugins, "plugin")) {
			if (!text(child(plugin, "artifactId")).equals("maven-compiler-plugin")) {
				continue;
			}
			for (Element execution : children(child(plugin, "executions"), "execution")) {
				if (text(child(execution, "id")).equals("default-compile")) {
					for (Element arg : children(child(child(execution, "configuration"), "compilerArgs"), "arg")) {
						args.add(text(arg));
					}
				}
			}
		}
		return args;
	}

	private static Element child(Element parent, String name) {
		List<Element> found = children(parent, name);
		assertThat(found).as("<%s> in <%s> of the parent pom", name, parent.getTagName()).hasSize(1);
		return found.get(0);
	}

	private static List<Element> children(Element parent, String name) {
		List<Element> found = new ArrayList<>();
		NodeList nodes = parent.getChildNodes();
		for (int i = 0; i < nodes.getLength(); i++) {
			if (nodes.item(i).getNodeType() == Node.ELEMENT_NODE && nodes.item(i).getNodeName().equals(name)) {
				found.add((Element) nodes.item(i));
			}
		}
		return found;
	}

	private static String text(Element element) {
		return element.getTextContent().strip();
	}

	private record Compilation(int exitCode, String output) {
	}

}
