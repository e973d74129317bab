package io.zklock.release;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The release bundle's exclusions follow the modules: every module of the build that does not deploy
 * ({@code maven.deploy.skip}) is named in {@code excludeArtifacts} of the central-publishing plugin in
 * {@code zklock-dependencies/pom.xml}, and no deployed module is. The plugin bundles every module of the
 * reactor, whatever {@code maven.deploy.skip} says, so a new test module missing from the list reaches
 * the bundle, and {@code release-check.sh} refuses it only after two 90-second release builds; this
 * test says the same in a second.
 */
class PublishedSetTests {

	private static final Path ROOT = Path.of(System.getProperty("zklock.build.root", "../.."))
		.toAbsolutePath()
		.normalize();

	@Test
	void shouldExcludeExactlyTheModulesThatDoNotDeploy() throws Exception {
		Set<String> notDeployed = new TreeSet<>();
		Set<String> deployed = new TreeSet<>();
		for (Path pom : modulePoms(ROOT.resolve("pom.xml"))) {
			Element project = parse(pom).getDocumentElement();
			String artifactId = child(project, "artifactId");
			Element properties = firstChild(project, "properties");
			boolean skip = properties != null && "true".equals(child(properties, "maven.deploy.skip"));
			(skip ? notDeployed : deployed).add(artifactId);
		}
		Set<String> excluded = new TreeSet<>();
		NodeList names = parse(ROOT.resolve("zklock-dependencies/pom.xml")).getElementsByTagName("excludeArtifact");
		for (int i = 0; i < names.getLength(); i++) {
			excluded.add(names.item(i).getTextContent().trim());
		}
		assertThat(excluded)
			.as("excludeArtifacts in zklock-dependencies/pom.xml: add each module with maven.deploy.skip "
					+ "(or publish it on purpose)")
			.containsAll(notDeployed);
		assertThat(excluded).as("excludeArtifacts in zklock-dependencies/pom.xml: a deployed module is excluded")
			.doesNotContainAnyElementsOf(deployed);
		assertThat(deployed).as("the modules that deploy").contains("zklock-core", "zklock-spring-boot-starter");
	}

	/** Every module's pom.xml below a parent, its own included, by the parent's {@code <module>} list. */
	private static List<Path> modulePoms(Path pom) throws Exception {
		List<Path> poms = new ArrayList<>();
		poms.add(pom);
		Element modules = firstChild(parse(pom).getDocumentElement(), "modules");
		if (modules != null) {
			NodeList children = modules.getElementsByTagName("module");
			for (int i = 0; i < children.getLength(); i++) {
				Path module = pom.getParent().resolve(children.item(i).getTextContent().trim()).resolve("pom.xml");
				assertThat(module).as("a module named in %s", pom).exists();
				poms.addAll(modulePoms(module));
			}
		}
		return poms;
	}

	private static Document parse(Path pom) throws Exception {
		DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
		factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
		try (var in = Files.newInputStream(pom)) {
			return factory.newDocumentBuilder().parse(in);
		}
	}

	private static Element firstChild(Element parent, String name) {
		for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
			if (node instanceof Element element && element.getTagName().equals(name)) {
				return element;
			}
		}
		return null;
	}

	private static String child(Element parent, String name) {
		Element element = firstChild(parent, name);
		return (element != null) ? element.getTextContent().trim() : null;
	}

}
