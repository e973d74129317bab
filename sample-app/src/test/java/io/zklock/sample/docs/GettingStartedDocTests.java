package io.zklock.sample.docs;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps {@code docs/getting-started.md} and the code it shows from drifting apart: every code
 * block of the guide that is marked {@code <!-- file: path -->} must be byte for byte the file
 * at that path, and every file of the guide's example ({@code com.example.orders} in this
 * module's test sources and resources, which {@code com.example.orders.GettingStartedTests}
 * compiles and runs) must be shown. The guide's pom fragment must name modules and the
 * version this build has, and the guide's Gradle builds (Groovy and Kotlin DSL) the same
 * dependencies as that fragment.
 */
class GettingStartedDocTests {

	private static final String GUIDE = "docs/getting-started.md";

	private static final Pattern MARKED_BLOCK = Pattern
		.compile("<!-- file: (\\S+) -->\\n```[a-z]*\\n(.*?)```\\n", Pattern.DOTALL);

	private static final List<String> EXAMPLE_FOLDERS = List.of("sample-app/src/test/java/com/example/orders",
			"sample-app/src/test/resources/com/example/orders");

	private final Path root = repositoryRoot();

	@Test
	void shouldShowEveryMarkedCodeBlockExactlyAsItsFile() throws IOException {
		Map<String, String> blocks = markedBlocks();
		assertThat(blocks).as("marked code blocks in " + GUIDE).isNotEmpty();
		blocks.forEach((file, block) -> {
			Path path = this.root.resolve(file);
			assertThat(path).as("file named by a code block of " + GUIDE).isRegularFile();
			assertThat(block).as("the code block of " + GUIDE + " for " + file + " (copy the file into the guide)")
				.isEqualTo(read(path));
		});
	}

	@Test
	void shouldShowEveryFileOfTheExampleInTheGuide() throws IOException {
		List<String> files = new ArrayList<>();
		for (String folder : EXAMPLE_FOLDERS) {
			try (Stream<Path> paths = Files.list(this.root.resolve(folder))) {
				paths.filter(Files::isRegularFile)
					.map((path) -> this.root.relativize(path).toString().replace('\\', '/'))
					.filter((file) -> !file.endsWith("Tests.java"))
					.forEach(files::add);
			}
		}
		assertThat(markedBlocks().keySet()).as("files shown by " + GUIDE).containsAll(files);
	}

	@Test
	void shouldNameThisBuildsModulesAndVersionInThePomFragment() throws Exception {
		String fragment = read(this.root.resolve("sample-app/src/test/resources/com/example/orders/pom-dependencies.xml"));
		Element project = parse("<project>" + fragment + "</project>");
		String version = parse(read(this.root.resolve("zklock-dependencies/pom.xml"))).getElementsByTagName("version")
			.item(0)
			.getTextContent();
		assertThat(text(project, "zklock.version")).as("zklock.version of the guide").isEqualTo(version);
		List<String> modules = ReactorModules.artifactIds(this.root);
		NodeList dependencies = project.getElementsByTagName("dependency");
		int zklockArtifacts = 0;
		for (int i = 0; i < dependencies.getLength(); i++) {
			Element dependency = (Element) dependencies.item(i);
			if (text(dependency, "groupId").equals("io.zklock")) {
				assertThat(modules).as("zklock artifacts of this build").contains(text(dependency, "artifactId"));
				zklockArtifacts++;
			}
		}
		assertThat(zklockArtifacts).isEqualTo(2);
		assertThat(fragment).contains("<type>pom</type>", "<scope>import</scope>");
	}

	@Test
	void shouldNameTheSameDependenciesInTheGradleBuildsAsInThePomFragment() throws Exception {
		Element project = parse("<project>"
				+ read(this.root.resolve("sample-app/src/test/resources/com/example/orders/pom-dependencies.xml")) + "</project>");
		String version = parse(read(this.root.resolve("zklock-dependencies/pom.xml"))).getElementsByTagName("version")
			.item(0)
			.getTextContent();
		List<String> maven = new ArrayList<>();
		NodeList dependencies = project.getElementsByTagName("dependency");
		for (int i = 0; i < dependencies.getLength(); i++) {
			Element dependency = (Element) dependencies.item(i);
			maven.add(text(dependency, "groupId") + ":" + text(dependency, "artifactId"));
		}
		Pattern coordinate = Pattern.compile("[\"']([\\w.-]+):([\\w.-]+)(?::([^\"']+))?[\"']");
		for (String build : List.of("build.gradle", "build.gradle.kts")) {
			String script = read(this.root.resolve("sample-app/src/test/resources/com/example/orders").resolve(build));
			List<String> gradle = new ArrayList<>();
			Matcher matcher = coordinate.matcher(script);
			while (matcher.find()) {
				gradle.add(matcher.group(1) + ":" + matcher.group(2));
				if (matcher.group(1).equals("io.zklock") && matcher.group(3) != null) {
					assertThat(matcher.group(3)).as("zklock version in " + build).isEqualTo(version);
				}
			}
			assertThat(gradle).as("dependencies of " + build + " (those of the guide's pom fragment)")
				.containsExactlyElementsOf(maven);
			assertThat(script).as(build + ": the BOM as a platform").contains("platform(");
		}
	}

	private Map<String, String> markedBlocks() throws IOException {
		String guide = read(this.root.resolve(GUIDE));
		Map<String, String> blocks = new LinkedHashMap<>();
		Matcher matcher = MARKED_BLOCK.matcher(guide);
		while (matcher.find()) {
			assertThat(blocks.put(matcher.group(1), matcher.group(2))).as("a second block for " + matcher.group(1))
				.isNull();
		}
		return blocks;
	}

	private static String text(Element element, String tag) {
		NodeList found = element.getElementsByTagName(tag);
		assertThat(found.getLength()).as("<" + tag + "> elements").isPositive();
		return found.item(0).getTextContent().strip();
	}

	private static Element parse(String xml) throws Exception {
		Document document = DocumentBuilderFactory.newInstance()
			.newDocumentBuilder()
			.parse(new InputSource(new StringReader(xml)));
		return document.getDocumentElement();
	}

	private static String read(Path file) {
		try {
			return Files.readString(file, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot read " + file, ex);
		}
	}

	private static Path repositoryRoot() {
		for (Path folder = Path.of("").toAbsolutePath(); folder != null; folder = folder.getParent()) {
			if (Files.isRegularFile(folder.resolve(GUIDE))) {
				return folder;
			}
		}
		throw new IllegalStateException("No " + GUIDE + " above " + Path.of("").toAbsolutePath());
	}

}
