package io.zklock.release;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarInputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Opens a Maven Central deployment bundle and names, file by file, everything the Central Publisher
 * Portal would refuse: a file without its {@code .asc} signature or its {@code .md5} and
 * {@code .sha1} checksums (or with checksums that do not match it), a jar artifact without its
 * {@code -sources.jar} or {@code -javadoc.jar}, a POM without name, description, url, licenses, scm
 * or developers (the ones Maven inherits may come from a parent POM in the bundle), and a SNAPSHOT
 * version or a SNAPSHOT anywhere in a POM.
 *
 * <p>
 * One file, JDK only, so that anyone runs it from a clone without building anything:
 *
 * <pre>
 * java tests/release-tests/src/main/java/io/zklock/release/BundleChecker.java target/central-publishing/central-bundle.zip
 * </pre>
 *
 * <p>
 * The bundle is the zip that central-publishing-maven-plugin writes, or a folder in Maven repository
 * layout (its {@code target/central-staging}). Options: {@code --published=a,b,...} also requires
 * the bundle to hold exactly these artifactIds; {@code --verify-signatures} has {@code gpg --verify}
 * check every signature against the keys of the current {@code GNUPGHOME}. Every problem is one
 * line, {@code path: [rule] what is wrong}; the exit status is 0 when there is none, 1 when there
 * are problems, 2 when the bundle cannot be read. See docs/releasing.md.
 */
public final class BundleChecker {

	/** The rules, as named in each problem line. */
	public enum Rule {

		/** Files sit at {@code group/artifact/version/artifact-version[-classifier].ext}, with a POM. */
		LAYOUT("layout"),
		/** Every file has an ASCII-armored detached PGP signature, {@code file.asc}, that verifies. */
		SIGNATURE("signature"),
		/** Every file has {@code .md5} and {@code .sha1} files, and every checksum file matches. */
		CHECKSUM("checksum"),
		/** A jar artifact comes with {@code artifact-version-sources.jar}. */
		SOURCES("sources"),
		/** A jar artifact comes with {@code artifact-version-javadoc.jar}. */
		JAVADOC("javadoc"),
		/** Every jar opens as a zip archive. */
		JAR("jar"),
		/** A POM has name, description, url, licenses, scm and developers. */
		POM_METADATA("pom-metadata"),
		/** No SNAPSHOT version, and no SNAPSHOT anywhere in a POM. */
		SNAPSHOT("snapshot"),
		/** The bundle holds exactly the artifacts given with {@code --published}. */
		PUBLISHED_SET("published-set");

		private final String id;

		Rule(String id) {
			this.id = id;
		}

		/**
		 * The rule's name in problem lines.
		 * @return the name, such as {@code signature}
		 */
		public String id() {
			return this.id;
		}

	}

	/**
	 * One thing Central would refuse.
	 * @param file the file's path in the bundle ({@code io/zklock/zklock-core/1.0.0/zklock-core-1.0.0.pom})
	 * @param rule the rule it breaks
	 * @param message what is wrong, in words
	 */
	public record Problem(String file, Rule rule, String message) {

		@Override
		public String toString() {
			return this.file + ": [" + this.rule.id() + "] " + this.message;
		}

	}

	/**
	 * What a check found.
	 * @param components the {@code groupId:artifactId:version} of every POM in the bundle, sorted
	 * @param files how many files the bundle holds
	 * @param problems every problem, in the bundle's file order
	 */
	public record Result(List<String> components, int files, List<Problem> problems) {

		/**
		 * Whether Central would take the bundle, as far as these rules see.
		 * @return {@code true} when there is no problem
		 */
		public boolean passed() {
			return this.problems.isEmpty();
		}

	}

	private static final List<String> CHECKSUM_EXTENSIONS = List.of(".md5", ".sha1", ".sha256", ".sha512");

	private static final Map<String, String> DIGEST_OF = Map.of(".md5", "MD5", ".sha1", "SHA-1", ".sha256", "SHA-256",
			".sha512", "SHA-512");

	/** The POM elements Central requires; all but name are inherited from a parent POM, as Maven does. */
	private static final List<String> REQUIRED_ELEMENTS = List.of("name", "description", "url", "licenses", "scm",
			"developers");

	private final Set<String> published;

	private final boolean verifySignatures;

	private final Path gnupgHome;

	/**
	 * A checker of the structural rules only.
	 */
	public BundleChecker() {
		this(null, false);
	}

	/**
	 * A checker.
	 * @param published the artifactIds the bundle must hold, no more and no fewer; {@code null} for any
	 * @param verifySignatures whether {@code gpg --verify} must accept every signature (with the keys of
	 * the current {@code GNUPGHOME})
	 */
	public BundleChecker(Set<String> published, boolean verifySignatures) {
		this(published, verifySignatures, null);
	}

	/**
	 * A checker that verifies signatures with the keys of a given GnuPG home.
	 * @param published the artifactIds the bundle must hold, no more and no fewer; {@code null} for any
	 * @param verifySignatures whether {@code gpg --verify} must accept every signature
	 * @param gnupgHome gpg's home folder ({@code --homedir}); {@code null} for gpg's own choice
	 * ({@code GNUPGHOME}, else {@code ~/.gnupg})
	 */
	public BundleChecker(Set<String> published, boolean verifySignatures, Path gnupgHome) {
		this.published = (published != null) ? Set.copyOf(published) : null;
		this.verifySignatures = verifySignatures;
		this.gnupgHome = gnupgHome;
	}

	/**
	 * Runs the checker: {@code BundleChecker [--published=a,b,...] [--verify-signatures] BUNDLE}.
	 * @param args the options and the bundle (a zip or a folder)
	 */
	public static void main(String[] args) {
		System.exit(run(args, System.out, System.err));
	}

	/**
	 * Runs the checker as {@link #main(String[])} does, printing to the given streams.
	 * @param args the options and the bundle
	 * @param out where the problems and the summary go
	 * @param err where usage and read errors go
	 * @return the exit status: 0 passed, 1 problems found, 2 bad arguments or unreadable bundle
	 */
	public static int run(String[] args, PrintStream out, PrintStream err) {
		Set<String> published = null;
		boolean verify = false;
		Path bundle = null;
		for (String arg : args) {
			if (arg.startsWith("--published=")) {
				published = Arrays.stream(arg.substring("--published=".length()).split(","))
					.map(String::trim)
					.filter((id) -> !id.isEmpty())
					.collect(Collectors.toCollection(TreeSet::new));
			}
			else if (arg.equals("--verify-signatures")) {
				verify = true;
			}
			else if (arg.startsWith("-") || bundle != null) {
				err.println("usage: BundleChecker [--published=artifactId,...] [--verify-signatures] BUNDLE");
				err.println("  BUNDLE: central-bundle.zip, or a folder in Maven repository layout");
				return 2;
			}
			else {
				bundle = Path.of(arg);
			}
		}
		if (bundle == null) {
			err.println("usage: BundleChecker [--published=artifactId,...] [--verify-signatures] BUNDLE");
			return 2;
		}
		Result result;
		try {
			result = new BundleChecker(published, verify).check(bundle);
		}
		catch (IOException | UncheckedIOException ex) {
			err.println("Cannot read the bundle " + bundle + ": " + ex.getMessage());
			return 2;
		}
		result.problems().forEach(out::println);
		if (result.passed()) {
			out.println("OK: " + bundle + ": " + result.components().size() + " components, " + result.files()
					+ " files, nothing Central would refuse");
			result.components().forEach((component) -> out.println("  " + component));
			return 0;
		}
		long files = result.problems().stream().map(Problem::file).distinct().count();
		out.println("FAILED: " + bundle + ": " + result.problems().size() + " problem(s) in " + files
				+ " file(s); each line above names the file and the rule");
		return 1;
	}

	/**
	 * Checks a bundle.
	 * @param bundle the zip central-publishing-maven-plugin writes, or a folder in Maven repository layout
	 * @return the components, and every problem found
	 * @throws IOException if the bundle cannot be read
	 */
	public Result check(Path bundle) throws IOException {
		Map<String, byte[]> files = read(bundle);
		List<Problem> problems = new ArrayList<>();
		Map<String, Pom> poms = readPoms(files, problems);
		Map<String, Pom> byCoordinates = new LinkedHashMap<>();
		poms.values().forEach((pom) -> byCoordinates.put(pom.coordinates(), pom));
		Set<String> componentFolders = poms.keySet()
			.stream()
			.map(BundleChecker::folder)
			.collect(Collectors.toSet());
		for (String file : files.keySet()) {
			checkFile(file, files, componentFolders, problems);
		}
		for (Pom pom : poms.values()) {
			checkComponent(pom, files, problems);
			checkMetadata(pom, byCoordinates, problems);
			checkSnapshots(pom, problems);
		}
		if (this.verifySignatures) {
			verifySignatures(files, problems);
		}
		if (this.published != null) {
			checkPublishedSet(poms.values(), problems);
		}
		if (poms.isEmpty()) {
			problems.add(new Problem(bundle.toString(), Rule.LAYOUT, "no POM in the bundle"));
		}
		List<String> components = poms.values().stream().map(Pom::coordinates).sorted().toList();
		problems.sort(Comparator.comparing(Problem::file));
		return new Result(components, files.size(), List.copyOf(problems));
	}

	private static Map<String, byte[]> read(Path bundle) throws IOException {
		Map<String, byte[]> files = new TreeMap<>();
		if (Files.isDirectory(bundle)) {
			try (Stream<Path> paths = Files.walk(bundle)) {
				for (Path path : paths.filter(Files::isRegularFile).toList()) {
					files.put(bundle.relativize(path).toString().replace('\\', '/'), Files.readAllBytes(path));
				}
			}
		}
		else {
			try (ZipFile zip = new ZipFile(bundle.toFile())) {
				for (ZipEntry entry : zip.stream().filter((entry) -> !entry.isDirectory()).toList()) {
					try (InputStream in = zip.getInputStream(entry)) {
						files.put(entry.getName(), in.readAllBytes());
					}
				}
			}
		}
		return files;
	}

	private static Map<String, Pom> readPoms(Map<String, byte[]> files, List<Problem> problems) {
		Map<String, Pom> poms = new TreeMap<>();
		for (Map.Entry<String, byte[]> file : files.entrySet()) {
			if (!file.getKey().endsWith(".pom")) {
				continue;
			}
			String[] segments = file.getKey().split("/");
			if (segments.length < 4) {
				problems.add(new Problem(file.getKey(), Rule.LAYOUT,
						"a POM must sit at groupId/artifactId/version/artifactId-version.pom"));
				continue;
			}
			String version = segments[segments.length - 2];
			String artifactId = segments[segments.length - 3];
			String groupId = String.join(".", Arrays.copyOf(segments, segments.length - 3));
			Element project;
			try {
				project = parse(file.getValue());
			}
			catch (Exception ex) {
				problems.add(new Problem(file.getKey(), Rule.LAYOUT, "not a readable POM: " + ex.getMessage()));
				continue;
			}
			Pom pom = new Pom(file.getKey(), groupId, artifactId, version, project);
			String expected = artifactId + "-" + version + ".pom";
			if (!segments[segments.length - 1].equals(expected)) {
				problems.add(new Problem(file.getKey(), Rule.LAYOUT, "a POM of " + pom.coordinates() + " must be named " + expected));
			}
			checkCoordinates(pom, problems);
			poms.put(file.getKey(), pom);
		}
		return poms;
	}

	private static void checkCoordinates(Pom pom, List<Problem> problems) {
		Element parent = child(pom.project(), "parent");
		String groupId = text(pom.project(), "groupId");
		if (groupId == null && parent != null) {
			groupId = text(parent, "groupId");
		}
		String version = text(pom.project(), "version");
		if (version == null && parent != null) {
			version = text(parent, "version");
		}
		String coordinates = groupId + ":" + text(pom.project(), "artifactId") + ":" + version;
		if (!coordinates.equals(pom.coordinates())) {
			problems.add(new Problem(pom.file(), Rule.LAYOUT,
					"the POM says " + coordinates + " but sits in the folder of " + pom.coordinates()));
		}
	}

	private static void checkFile(String file, Map<String, byte[]> files, Set<String> componentFolders,
			List<Problem> problems) {
		String checksumOf = checksumExtension(file);
		if (checksumOf != null) {
			String target = file.substring(0, file.length() - checksumOf.length());
			if (files.containsKey(target)) {
				String expected = hex(DIGEST_OF.get(checksumOf), files.get(target));
				String given = new String(files.get(file), StandardCharsets.US_ASCII).trim().split("\\s+")[0];
				if (!given.equalsIgnoreCase(expected)) {
					problems.add(new Problem(file, Rule.CHECKSUM, "does not match " + name(target) + " (the file's "
							+ DIGEST_OF.get(checksumOf) + " is " + expected + ")"));
				}
			}
			return;
		}
		if (file.endsWith(".asc")) {
			String text = new String(files.get(file), StandardCharsets.US_ASCII);
			if (!text.startsWith("-----BEGIN PGP SIGNATURE-----")) {
				problems.add(new Problem(file, Rule.SIGNATURE, "not an ASCII-armored PGP signature"));
			}
			return;
		}
		if (!componentFolders.contains(folder(file))) {
			problems.add(new Problem(file, Rule.LAYOUT, "no POM in its folder: every file belongs to a component "
					+ "(groupId/artifactId/version/) whose POM is in the bundle"));
		}
		if (!files.containsKey(file + ".asc")) {
			problems.add(new Problem(file, Rule.SIGNATURE, "no detached PGP signature " + name(file) + ".asc"));
		}
		for (String extension : List.of(".md5", ".sha1")) {
			if (!files.containsKey(file + extension)) {
				problems.add(new Problem(file, Rule.CHECKSUM, "no " + name(file) + extension));
			}
		}
		if (file.endsWith(".jar")) {
			checkJar(file, files.get(file), problems);
		}
	}

	private static void checkJar(String file, byte[] content, List<Problem> problems) {
		try (JarInputStream jar = new JarInputStream(new ByteArrayInputStream(content))) {
			if (jar.getNextEntry() == null && jar.getManifest() == null) {
				problems.add(new Problem(file, Rule.JAR, "an empty archive"));
			}
		}
		catch (IOException ex) {
			problems.add(new Problem(file, Rule.JAR, "does not open as a jar: " + ex.getMessage()));
		}
	}

	private static void checkComponent(Pom pom, Map<String, byte[]> files, List<Problem> problems) {
		String folder = folder(pom.file());
		String base = pom.artifactId() + "-" + pom.version();
		for (String file : files.keySet()) {
			if (file.endsWith(".asc") || checksumExtension(file) != null) {
				continue;
			}
			if (folder(file).equals(folder) && !name(file).startsWith(base + ".") && !name(file).startsWith(base + "-")) {
				problems.add(new Problem(file, Rule.LAYOUT,
						"a file of " + pom.coordinates() + " must be named " + base + "[-classifier].extension"));
			}
		}
		String packaging = text(pom.project(), "packaging");
		if ("pom".equals(packaging)) {
			return;
		}
		String main = folder + "/" + base + ".jar";
		if (!files.containsKey(main)) {
			problems.add(new Problem(pom.file(), Rule.JAR, "packaging " + ((packaging != null) ? packaging : "jar (the default)")
					+ " but no " + base + ".jar in the bundle"));
			return;
		}
		if (!files.containsKey(folder + "/" + base + "-sources.jar")) {
			problems.add(new Problem(main, Rule.SOURCES, "no " + base + "-sources.jar beside it"));
		}
		if (!files.containsKey(folder + "/" + base + "-javadoc.jar")) {
			problems.add(new Problem(main, Rule.JAVADOC, "no " + base + "-javadoc.jar beside it"));
		}
	}

	private static void checkMetadata(Pom pom, Map<String, Pom> byCoordinates, List<Problem> problems) {
		for (String element : REQUIRED_ELEMENTS) {
			if (has(pom.project(), element)) {
				continue;
			}
			if (element.equals("name")) {
				problems.add(new Problem(pom.file(), Rule.POM_METADATA,
						"no <name> (Maven does not inherit it: every POM gives its own)"));
				continue;
			}
			List<String> parents = new ArrayList<>();
			String outsideBundle = null;
			boolean inherited = false;
			Element parent = child(pom.project(), "parent");
			while (parent != null && !inherited && parents.size() < 20) {
				String coordinates = text(parent, "groupId") + ":" + text(parent, "artifactId") + ":"
						+ text(parent, "version");
				Pom next = byCoordinates.get(coordinates);
				if (next == null) {
					outsideBundle = coordinates;
					break;
				}
				parents.add(coordinates);
				inherited = has(next.project(), element);
				parent = child(next.project(), "parent");
			}
			if (inherited) {
				continue;
			}
			String message = "no <" + element + ">";
			if (!parents.isEmpty()) {
				message += ", neither here nor in its parents " + String.join(", ", parents);
			}
			if (outsideBundle != null) {
				message += "; its parent " + outsideBundle + " is not in the bundle (Central would need it published already)";
			}
			problems.add(new Problem(pom.file(), Rule.POM_METADATA, message));
		}
	}

	/** Whether the element is present with content Central accepts. */
	private static boolean has(Element project, String element) {
		Element found = child(project, element);
		if (found == null) {
			return false;
		}
		return switch (element) {
			case "licenses" -> children(found, "license").stream()
				.anyMatch((license) -> text(license, "name") != null || text(license, "url") != null);
			case "developers" -> children(found, "developer").stream()
				.anyMatch((developer) -> text(developer, "name") != null || text(developer, "id") != null
						|| text(developer, "email") != null);
			case "scm" -> text(found, "url") != null || text(found, "connection") != null;
			default -> !found.getTextContent().isBlank();
		};
	}

	private static void checkSnapshots(Pom pom, List<Problem> problems) {
		if (pom.version().contains("SNAPSHOT")) {
			problems.add(new Problem(pom.file(), Rule.SNAPSHOT,
					"the version " + pom.version() + " is a SNAPSHOT: Central takes releases only"));
		}
		findSnapshots(pom.project(), "project", pom, problems);
	}

	private static void findSnapshots(Element element, String path, Pom pom, List<Problem> problems) {
		boolean leaf = true;
		for (Node node = element.getFirstChild(); node != null; node = node.getNextSibling()) {
			if (node instanceof Element child) {
				leaf = false;
				String name = child.getTagName();
				String label = name;
				if (Set.of("parent", "dependency", "plugin", "extension", "exclusion").contains(name)) {
					label = name + "[" + text(child, "groupId") + ":" + text(child, "artifactId") + "]";
				}
				findSnapshots(child, path + "/" + label, pom, problems);
			}
		}
		// a version (1.0-SNAPSHOT, a range up to one, a property holding one), not prose that names the word
		String text = element.getTextContent().trim();
		if (leaf && (text.contains("-SNAPSHOT") || (element.getTagName().equals("version") && text.contains("SNAPSHOT")))) {
			problems.add(new Problem(pom.file(), Rule.SNAPSHOT,
					path + " is " + text + ": a release depends on releases only"));
		}
	}

	private void checkPublishedSet(Iterable<Pom> poms, List<Problem> problems) {
		Set<String> inBundle = new TreeSet<>();
		for (Pom pom : poms) {
			inBundle.add(pom.artifactId());
			if (!this.published.contains(pom.artifactId())) {
				problems.add(new Problem(pom.file(), Rule.PUBLISHED_SET, pom.artifactId()
						+ " is not one of the published artifacts (" + String.join(", ", new TreeSet<>(this.published))
						+ "): exclude it (excludeArtifacts of central-publishing-maven-plugin) or publish it on purpose"));
			}
		}
		for (String artifactId : new TreeSet<>(this.published)) {
			if (!inBundle.contains(artifactId)) {
				problems.add(new Problem(artifactId, Rule.PUBLISHED_SET, "a published artifact missing from the bundle"));
			}
		}
	}

	private void verifySignatures(Map<String, byte[]> files, List<Problem> problems) throws IOException {
		Path folder = Files.createTempDirectory("bundle-signatures");
		try {
			for (String file : files.keySet()) {
				if (!file.endsWith(".asc") || !files.containsKey(file.substring(0, file.length() - 4))) {
					continue;
				}
				String target = file.substring(0, file.length() - 4);
				Path signed = folder.resolve("file");
				Path signature = folder.resolve("file.asc");
				Files.write(signed, files.get(target));
				Files.write(signature, files.get(file));
				String failure = gpgVerify(signature, signed);
				if (failure != null) {
					problems.add(new Problem(file, Rule.SIGNATURE, "gpg --verify does not accept it for " + name(target)
							+ ": " + failure));
				}
			}
		}
		finally {
			try (Stream<Path> paths = Files.walk(folder)) {
				for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
					Files.deleteIfExists(path);
				}
			}
		}
	}

	/** {@code null} when gpg accepts the signature, else the reason it gives. */
	private String gpgVerify(Path signature, Path signed) throws IOException {
		List<String> command = new ArrayList<>(List.of("gpg", "--batch", "--no-tty", "--no-autostart", "--status-fd", "1"));
		if (this.gnupgHome != null) {
			command.addAll(List.of("--homedir", this.gnupgHome.toString()));
		}
		command.addAll(List.of("--verify", signature.toString(), signed.toString()));
		Process gpg = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(gpg.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		try {
			if (!gpg.waitFor(60, TimeUnit.SECONDS)) {
				gpg.destroyForcibly();
				return "gpg did not answer within 60 s";
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			gpg.destroyForcibly();
			return "interrupted";
		}
		boolean good = output.lines().anyMatch((line) -> line.startsWith("[GNUPG:] GOODSIG") || line.startsWith("[GNUPG:] VALIDSIG"));
		if (gpg.exitValue() == 0 && good) {
			return null;
		}
		// gpg's status lines say why (BADSIG: the file changed after signing; NO_PUBKEY: a key this gpg
		// does not have); its own messages only when there are none
		Set<String> reasons = new LinkedHashSet<>();
		output.lines()
			.filter((line) -> line.startsWith("[GNUPG:] BADSIG") || line.startsWith("[GNUPG:] ERRSIG")
					|| line.startsWith("[GNUPG:] NO_PUBKEY") || line.startsWith("[GNUPG:] NODATA"))
			.map((line) -> line.substring("[GNUPG:] ".length()))
			.forEach(reasons::add);
		if (reasons.isEmpty()) {
			output.lines().filter((line) -> line.startsWith("gpg: ")).forEach(reasons::add);
		}
		return reasons.isEmpty() ? "gpg exited with " + gpg.exitValue() : String.join("; ", reasons);
	}

	private static String checksumExtension(String file) {
		return CHECKSUM_EXTENSIONS.stream().filter(file::endsWith).findFirst().orElse(null);
	}

	private static String hex(String algorithm, byte[] content) {
		try {
			return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(content));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(algorithm + " is missing from this JDK", ex);
		}
	}

	private static String folder(String file) {
		int slash = file.lastIndexOf('/');
		return (slash < 0) ? "" : file.substring(0, slash);
	}

	private static String name(String file) {
		return file.substring(file.lastIndexOf('/') + 1);
	}

	private static Element parse(byte[] pom) throws Exception {
		DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
		factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
		factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
		factory.setNamespaceAware(false);
		factory.setIgnoringComments(true);
		DocumentBuilder builder = factory.newDocumentBuilder();
		builder.setErrorHandler(null);
		Document document = builder.parse(new ByteArrayInputStream(pom));
		Element project = document.getDocumentElement();
		if (!project.getTagName().equals("project")) {
			throw new IOException("its root element is <" + project.getTagName() + ">, not <project>");
		}
		return project;
	}

	private static Element child(Element parent, String name) {
		for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
			if (node instanceof Element element && element.getTagName().equals(name)) {
				return element;
			}
		}
		return null;
	}

	private static List<Element> children(Element parent, String name) {
		List<Element> found = new ArrayList<>();
		for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
			if (node instanceof Element element && element.getTagName().equals(name)) {
				found.add(element);
			}
		}
		return found;
	}

	/** The trimmed text of a direct child, {@code null} if absent or blank. */
	private static String text(Element parent, String name) {
		Element element = child(parent, name);
		if (element == null || element.getTextContent().isBlank()) {
			return null;
		}
		return element.getTextContent().trim();
	}

	private record Pom(String file, String groupId, String artifactId, String version, Element project) {

		String coordinates() {
			return this.groupId + ":" + this.artifactId + ":" + this.version;
		}

	}

}
