package io.zklock.sample.docs;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

import io.zklock.autoconfigure.ZkLockProperties;
import io.zklock.integration.autoconfigure.ZkLockIntegrationProperties;

import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Keeps every code sample of the README and of {@code docs/} true. Each fenced block of Java or
 * Kotlin is marked with the source it is taken from and must be that source byte for byte; the
 * sources are test sources of this repository's modules, compiled and run by their tests, so a
 * sample that stops compiling or working fails the build there, and a sample edited in a
 * document alone fails here. Each YAML block must bind to {@link ZkLockProperties} (and
 * {@code zklock.integration.*} to {@link ZkLockIntegrationProperties}) with no {@code zklock.*}
 * key left over (a misspelt or removed property fails), and each XML block and Gradle build
 * script ({@code groovy}, or {@code kotlin} for the Kotlin DSL) may only name this build's
 * artifacts and version. YAML and XML blocks may be marked too (the
 * getting-started guide's are files its test application runs with).
 * <ul>
 * <li>{@code <!-- file: path -->}: the whole file at {@code path} (from the repository root).</li>
 * <li>{@code <!-- file: path#name -->}: the lines between {@code tag::name[]} and
 * {@code end::name[]} comments of that file ({@code // tag::name[]}, {@code # tag::name[]},
 * {@code <!-- tag::name[] -->}); several such pairs are joined in order, each part moved left by
 * its common indentation, with tabs shown as four spaces, and lines naming a tag are left out.</li>
 * <li>{@code <!-- other library: name -->}: a sample of another library's API (the code a
 * migration guide starts from), which needs that library and its infrastructure; its first line
 * must say whose code it is ({@code // name}).</li>
 * </ul>
 * Commands ({@code bash}) and sample output ({@code json}, {@code promql}) are not code samples.
 * Every relative link of the documents must lead to a file that exists and, with a
 * {@code #fragment} into a Markdown file, to one of its headings. The documents are the user's
 * (the README and {@code docs/}) and the maintainer's ({@code CONTRIBUTING.md} and the README of
 * every module folder, which ships in the starters' jars); the module pages ({@code docs/modules.md},
 * {@code docs/architecture.md}) name every module folder of the build and no other, and each
 * starter's README lists exactly the dependencies of its pom.
 */
class DocSamplesTests {

	private static final Pattern BLOCK = Pattern.compile("(?:<!-- (.+?) -->\\n)?```(java|kotlin|groovy|yaml|xml|properties)\\n(.*?)```\\n",
			Pattern.DOTALL);

	private static final Pattern FILE_MARKER = Pattern.compile("file: ([^#\\s]+)(?:#(\\S+))?");

	private static final Pattern OTHER_LIBRARY_MARKER = Pattern.compile("other library: (.+)");

	/** A Gradle coordinate of this project in a build script: {@code io.zklock:name} or {@code io.zklock:name:version}. */
	private static final Pattern GRADLE_COORDINATE = Pattern.compile("[\"']io\\.zklock:([\\w.-]+)(?::([^\"']+))?[\"']");

	private static final Pattern TAG_LINE = Pattern.compile(".*\\b(?:tag|end)::[\\w-]+\\[\\].*");

	private final Path root = repositoryRoot();

	@Test
	void shouldMarkEveryCodeSampleWithItsSource() throws Exception {
		List<String> unmarked = new ArrayList<>();
		for (Sample sample : samples()) {
			if (!sample.language().equals("java") && !sample.language().equals("kotlin")) {
				continue;
			}
			if (sample.marker() == null || !(FILE_MARKER.matcher(sample.marker()).matches()
					|| OTHER_LIBRARY_MARKER.matcher(sample.marker()).matches())) {
				unmarked.add(sample.where() + ": " + firstLine(sample.code()));
			}
		}
		assertThat(unmarked).as("code samples without '<!-- file: path[#tag] -->' (move the code into a test "
				+ "source that a test compiles and runs, mark its lines with tag::name[] / end::name[], and name "
				+ "it above the block)")
			.isEmpty();
	}

	@Test
	void shouldShowEachSampleExactlyAsItsSourceHasIt() throws Exception {
		for (Sample sample : samples()) {
			Matcher file = (sample.marker() != null) ? FILE_MARKER.matcher(sample.marker()) : null;
			if (file == null || !file.matches()) {
				continue;
			}
			Path path = this.root.resolve(file.group(1));
			assertThat(path).as("source named at " + sample.where()).isRegularFile();
			String expected = (file.group(2) != null) ? region(path, file.group(2)) : read(path);
			assertThat(sample.code()).as("the sample at " + sample.where() + " (copy " + file.group(1)
					+ ((file.group(2) != null) ? "#" + file.group(2) : "") + " into the document)")
				.isEqualTo(expected);
		}
	}

	@Test
	void shouldNameTheOtherLibraryInTheFirstLineOfItsSamples() throws Exception {
		for (Sample sample : samples()) {
			Matcher other = (sample.marker() != null) ? OTHER_LIBRARY_MARKER.matcher(sample.marker()) : null;
			if (other != null && other.matches()) {
				assertThat(firstLine(sample.code())).as("first line of the other library's sample at " + sample.where())
					.startsWith("// " + other.group(1));
			}
		}
	}

	@Test
	void shouldBindEveryZklockPropertyOfTheYamlSamples() throws Exception {
		for (Sample sample : samples()) {
			if (!sample.language().equals("yaml")) {
				continue;
			}
			List<PropertySource<?>> sources = new YamlPropertySourceLoader().load(sample.where(),
					new ByteArrayResource(sample.code().getBytes(StandardCharsets.UTF_8)));
			ConfigurationPropertyName integration = ConfigurationPropertyName.of("zklock.integration");
			List<ConfigurationPropertySource> all = new ArrayList<>();
			ConfigurationPropertySources.from(sources).forEach(all::add);
			Binder binder = new Binder(
					all.stream().map((source) -> source.filter((name) -> !integration.isAncestorOf(name))).toList());
			assertThatNoException().as("zklock.* of the sample at " + sample.where())
				.isThrownBy(() -> binder.bind("zklock", Bindable.of(ZkLockProperties.class),
						new NoUnboundElementsBindHandler(BindHandler.DEFAULT)));
			assertThatNoException().as("zklock.integration.* of the sample at " + sample.where())
				.isThrownBy(() -> new Binder(all).bind(integration, Bindable.of(ZkLockIntegrationProperties.class),
						new NoUnboundElementsBindHandler(BindHandler.DEFAULT)));
		}
	}

	@Test
	void shouldNameThisBuildsArtifactsAndVersionInTheXmlSamples() throws Exception {
		String version = element(read(this.root.resolve("zklock-dependencies/pom.xml"))).getElementsByTagName("version")
			.item(0)
			.getTextContent();
		List<String> artifactIds = ReactorModules.artifactIds(this.root);
		for (Sample sample : samples()) {
			if (!sample.language().equals("xml")) {
				continue;
			}
			NodeList dependencies = element("<sample>" + sample.code() + "</sample>").getElementsByTagName("dependency");
			for (int i = 0; i < dependencies.getLength(); i++) {
				Element dependency = (Element) dependencies.item(i);
				if (!text(dependency, "groupId").equals("io.zklock")) {
					continue;
				}
				assertThat(artifactIds).as("zklock artifact of the sample at " + sample.where())
					.contains(text(dependency, "artifactId"));
				String given = text(dependency, "version");
				if (!given.isEmpty() && !given.startsWith("${")) {
					assertThat(given).as("version of the sample at " + sample.where()).isEqualTo(version);
				}
			}
		}
	}

	@Test
	void shouldNameThisBuildsArtifactsAndVersionInTheGradleSamples() throws Exception {
		String version = element(read(this.root.resolve("zklock-dependencies/pom.xml"))).getElementsByTagName("version")
			.item(0)
			.getTextContent();
		List<String> artifactIds = ReactorModules.artifactIds(this.root);
		int coordinates = 0;
		for (Sample sample : samples()) {
			if (!sample.language().equals("groovy") && !sample.language().equals("kotlin")) {
				continue;
			}
			Matcher coordinate = GRADLE_COORDINATE.matcher(sample.code());
			while (coordinate.find()) {
				coordinates++;
				assertThat(artifactIds).as("zklock artifact of the Gradle sample at " + sample.where())
					.contains(coordinate.group(1));
				if (coordinate.group(2) != null) {
					assertThat(coordinate.group(2)).as("version of the Gradle sample at " + sample.where())
						.isEqualTo(version);
				}
			}
		}
		assertThat(coordinates).as("zklock coordinates in the Gradle samples of the documents").isPositive();
	}

	@Test
	void shouldInstallEveryArtifactTheSamplesNameWithTheOneDocumentedCommand() throws Exception {
		Pattern install = Pattern.compile("\\./mvnw [^`\\n]*\\binstall\\b[^`\\n]*");
		Pattern modules = Pattern.compile("-pl (\\S+) -am");
		List<String> commands = new ArrayList<>();
		for (Path document : documents()) {
			Matcher matcher = install.matcher(read(document));
			while (matcher.find()) {
				commands.add(matcher.group());
			}
		}
		assertThat(commands).as("install commands of the documents").isNotEmpty();
		assertThat(commands.stream().distinct()).as("install commands of the documents (one command everywhere)")
			.hasSize(1);
		Matcher folders = modules.matcher(commands.get(0));
		assertThat(folders.find()).as("-pl ... -am in " + commands.get(0)).isTrue();
		List<String> installed = new ArrayList<>();
		for (String folder : folders.group(1).split(",")) {
			installed.add(artifactId(this.root.resolve(folder).resolve("pom.xml")));
		}
		for (Sample sample : samples()) {
			if (sample.language().equals("xml")) {
				NodeList artifactIds = element("<sample>" + sample.code() + "</sample>").getElementsByTagName("artifactId");
				for (int i = 0; i < artifactIds.getLength(); i++) {
					String artifactId = artifactIds.item(i).getTextContent().strip();
					if (artifactId.startsWith("zklock-spring-")) {
						assertThat(installed).as("artifacts the install command builds (" + sample.where() + ")")
							.contains(artifactId);
					}
				}
			}
			if (sample.language().equals("groovy") || sample.language().equals("kotlin")) {
				Matcher coordinate = GRADLE_COORDINATE.matcher(sample.code());
				while (coordinate.find()) {
					if (coordinate.group(1).startsWith("zklock-spring-")) {
						assertThat(installed).as("artifacts the install command builds (" + sample.where() + ")")
							.contains(coordinate.group(1));
					}
				}
			}
		}
	}

	@Test
	void shouldLinkOnlyToFilesAndHeadingsThatExist() throws Exception {
		Pattern link = Pattern.compile("\\]\\(([^)\\s]+)\\)");
		List<String> broken = new ArrayList<>();
		for (Path document : allDocuments()) {
			Matcher matcher = link.matcher(withoutCodeBlocks(read(document)));
			while (matcher.find()) {
				String target = matcher.group(1);
				if (target.matches("^[a-z]+:.*")) {
					continue;
				}
				int hash = target.indexOf('#');
				String file = (hash >= 0) ? target.substring(0, hash) : target;
				Path path = file.isEmpty() ? document : document.getParent().resolve(file).normalize();
				if (!Files.exists(path)) {
					broken.add(this.root.relativize(document) + ": " + target + " (no such file)");
				}
				else if (hash >= 0 && path.toString().endsWith(".md")
						&& !anchors(read(path)).contains(target.substring(hash + 1))) {
					broken.add(this.root.relativize(document) + ": " + target + " (no such heading)");
				}
			}
		}
		assertThat(broken).as("relative links of the documents").isEmpty();
	}

	@Test
	void shouldNameEveryModuleFolderOfTheBuildOnTheModulePages() throws Exception {
		List<String> modules = ReactorModules.folders(this.root);
		Pattern folder = Pattern.compile("`((?:[a-z0-9][a-z0-9.-]*/)+)`");
		for (String page : List.of("docs/modules.md", "docs/architecture.md")) {
			String text = withoutCodeBlocks(read(this.root.resolve(page)));
			assertThat(modules).as("module folders of the root pom that " + page + " does not name as `folder/`")
				.allMatch((module) -> text.contains("`" + module + "/`"));
			Matcher named = folder.matcher(text);
			List<String> unknown = new ArrayList<>();
			while (named.find()) {
				String path = named.group(1).substring(0, named.group(1).length() - 1);
				if (modules.stream().noneMatch((module) -> module.equals(path) || module.startsWith(path + "/"))) {
					unknown.add(path);
				}
			}
			assertThat(unknown).as("folders " + page + " names that are no module of the root pom (nor hold one)")
				.isEmpty();
		}
	}

	@Test
	void shouldListExactlyTheDependenciesOfEachStarterInItsReadme() throws Exception {
		Pattern row = Pattern.compile("(?m)^\\| `([\\w.-]+)` \\|");
		for (String starter : List.of("lock-starter", "lock-starter/embedded")) {
			NodeList dependencies = element(read(this.root.resolve(starter).resolve("pom.xml")))
				.getElementsByTagName("dependency");
			List<String> declared = new ArrayList<>();
			for (int i = 0; i < dependencies.getLength(); i++) {
				declared.add(text((Element) dependencies.item(i), "artifactId"));
			}
			Matcher listed = row.matcher(read(this.root.resolve(starter).resolve("README.md")));
			List<String> inReadme = new ArrayList<>();
			while (listed.find()) {
				inReadme.add(listed.group(1));
			}
			assertThat(inReadme).as("the dependencies " + starter + "/README.md lists (it ships in the starter's "
					+ "sources and javadoc jars), against " + starter + "/pom.xml")
				.containsExactlyInAnyOrderElementsOf(declared);
		}
	}

	/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as dashes. */
	private static List<String> anchors(String markdown) {
		List<String> anchors = new ArrayList<>();
		java.util.Map<String, Integer> seen = new java.util.HashMap<>();
		Matcher heading = Pattern.compile("(?m)^#{1,6} (.+)$").matcher(withoutCodeBlocks(markdown));
		while (heading.find()) {
			String anchor = heading.group(1).strip().toLowerCase(java.util.Locale.ROOT).replaceAll("(?U)[^\\w\\- ]", "")
				.replace(' ', '-');
			int before = seen.merge(anchor, 1, Integer::sum) - 1;
			anchors.add((before == 0) ? anchor : anchor + "-" + before);
		}
		return anchors;
	}

	private static String withoutCodeBlocks(String markdown) {
		return markdown.replaceAll("(?s)```.*?```", "");
	}

	/** The artifactId of a module's pom (not of its parent). */
	private static String artifactId(Path pom) throws Exception {
		NodeList children = element(read(pom)).getChildNodes();
		for (int i = 0; i < children.getLength(); i++) {
			if (children.item(i) instanceof Element child && child.getTagName().equals("artifactId")) {
				return child.getTextContent().strip();
			}
		}
		throw new IllegalStateException("No artifactId in " + pom);
	}

	private static String text(Element element, String tag) {
		NodeList found = element.getElementsByTagName(tag);
		return (found.getLength() > 0) ? found.item(0).getTextContent().strip() : "";
	}

	private static Element element(String xml) throws Exception {
		return DocumentBuilderFactory.newInstance()
			.newDocumentBuilder()
			.parse(new InputSource(new StringReader(xml)))
			.getDocumentElement();
	}

	@Test
	void shouldCutRegionsOutOfTheirSource() {
		String source = String.join("\n", "class A {", "", "\t// tag::x[]", "\tvoid a() {", "\t\tcall();",
				"\t// end::x[]", "\t\tnotShown();", "\t\t// tag::x[]", "\t\tshown();", "\t\t// end::x[]", "\t}", "}", "");
		assertThat(cut(source, "x", "A.java")).isEqualTo("void a() {\n    call();\nshown();\n");
	}

	/** The user's documents: the README and {@code docs/}. */
	private List<Path> documents() throws IOException {
		List<Path> documents = new ArrayList<>();
		documents.add(this.root.resolve("README.md"));
		try (Stream<Path> docs = Files.list(this.root.resolve("docs"))) {
			docs.filter((path) -> path.toString().endsWith(".md")).sorted().forEach(documents::add);
		}
		return documents;
	}

	/** The user's documents and the maintainer's: {@code CONTRIBUTING.md} and every module's README. */
	private List<Path> allDocuments() throws Exception {
		List<Path> documents = documents();
		documents.add(this.root.resolve("CONTRIBUTING.md"));
		for (String folder : ReactorModules.folders(this.root)) {
			Path readme = this.root.resolve(folder).resolve("README.md");
			if (Files.isRegularFile(readme)) {
				documents.add(readme);
			}
		}
		return documents;
	}

	private List<Sample> samples() throws Exception {
		List<Sample> samples = new ArrayList<>();
		for (Path document : allDocuments()) {
			String text = read(document);
			Matcher matcher = BLOCK.matcher(text);
			while (matcher.find()) {
				int line = (int) text.substring(0, matcher.start(2)).chars().filter((c) -> c == '\n').count() + 1;
				samples.add(new Sample(this.root.relativize(document) + ":" + line, matcher.group(1), matcher.group(2),
						matcher.group(3)));
			}
		}
		assertThat(samples).as("code samples of the documents").isNotEmpty();
		return samples;
	}

	private String region(Path path, String tag) {
		return cut(read(path), tag, this.root.relativize(path).toString());
	}

	static String cut(String source, String tag, String name) {
		StringBuilder region = new StringBuilder();
		List<String> part = null;
		int parts = 0;
		for (String line : source.split("\n", -1)) {
			if (line.contains("tag::" + tag + "[]")) {
				part = new ArrayList<>();
			}
			else if (line.contains("end::" + tag + "[]")) {
				assertThat(part).as("end::" + tag + "[] without tag::" + tag + "[] in " + name).isNotNull();
				region.append(moveLeft(part));
				part = null;
				parts++;
			}
			else if (part != null && !TAG_LINE.matcher(line).matches()) {
				part.add(line);
			}
		}
		assertThat(part).as("tag::" + tag + "[] without end::" + tag + "[] in " + name).isNull();
		assertThat(parts).as("parts tagged " + tag + " in " + name).isPositive();
		return region.toString();
	}

	private static String moveLeft(List<String> lines) {
		int indent = lines.stream()
			.filter((line) -> !line.isBlank())
			.mapToInt((line) -> line.length() - line.stripLeading().length())
			.min()
			.orElse(0);
		StringBuilder text = new StringBuilder();
		for (String line : lines) {
			String moved = line.isBlank() ? "" : line.substring(indent);
			int tabs = 0;
			while (tabs < moved.length() && moved.charAt(tabs) == '\t') {
				tabs++;
			}
			text.append("    ".repeat(tabs)).append(moved.substring(tabs)).append('\n');
		}
		return text.toString();
	}

	private static String firstLine(String code) {
		int newline = code.indexOf('\n');
		return (newline >= 0) ? code.substring(0, newline) : code;
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
			if (Files.isRegularFile(folder.resolve("README.md")) && Files.isDirectory(folder.resolve("docs"))) {
				return folder;
			}
		}
		throw new IllegalStateException("No README.md and docs/ above " + Path.of("").toAbsolutePath());
	}

	record Sample(String where, String marker, String language, String code) {
	}

}
