package io.zklock.sample.docs;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import javax.xml.parsers.DocumentBuilderFactory;

import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The artifacts this build makes: the artifact id of every module the root pom lists (in its
 * profiles too), wherever the module's folder is (modules sit under tests/ and inside other
 * modules' folders). For the tests that hold the docs' dependency snippets to this build.
 */
final class ReactorModules {

	private ReactorModules() {
	}

	static List<String> artifactIds(Path root) throws Exception {
		List<String> artifactIds = new ArrayList<>();
		artifactIds.add(artifactId(root.resolve("pom.xml")));
		for (String folder : folders(root)) {
			artifactIds.add(artifactId(root.resolve(folder).resolve("pom.xml")));
		}
		return artifactIds;
	}

	/** The folder of every module the root pom lists (in its profiles too), such as {@code tests/fault-tests}. */
	static List<String> folders(Path root) throws Exception {
		List<String> folders = new ArrayList<>();
		NodeList modules = parse(root.resolve("pom.xml")).getElementsByTagName("module");
		for (int i = 0; i < modules.getLength(); i++) {
			folders.add(modules.item(i).getTextContent().strip());
		}
		return folders;
	}

	private static String artifactId(Path pom) throws Exception {
		NodeList children = parse(pom).getChildNodes();
		for (int i = 0; i < children.getLength(); i++) {
			if (children.item(i) instanceof Element child && child.getTagName().equals("artifactId")) {
				return child.getTextContent().strip();
			}
		}
		throw new IllegalStateException("No artifactId in " + pom);
	}

	private static Element parse(Path pom) throws Exception {
		return DocumentBuilderFactory.newInstance()
			.newDocumentBuilder()
			.parse(new ByteArrayInputStream(Files.readAllBytes(pom)))
			.getDocumentElement();
	}

}
