package io.zklock.release;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.zklock.release.BundleChecker.Problem;
import io.zklock.release.BundleChecker.Result;
import io.zklock.release.BundleChecker.Rule;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.zklock.release.FixtureBundle.LIB;
import static io.zklock.release.FixtureBundle.LIB_JAR;
import static io.zklock.release.FixtureBundle.LIB_POM;
import static io.zklock.release.FixtureBundle.PARENT_POM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * {@link BundleChecker} on fixture bundles signed with a throwaway key: a bundle Central would take
 * passes, and each thing Central would refuse fails naming the file and the rule.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class BundleCheckerTests {

	@TempDir
	Path temp;

	private FixtureBundle bundle;

	@BeforeEach
	void writeBundle() throws IOException {
		this.bundle = FixtureBundle.write(this.temp.resolve("bundle"));
	}

	@Test
	void shouldPassAGoodBundleAsZipAndAsFolder() throws IOException {
		Path zip = this.bundle.zip(this.temp.resolve("central-bundle.zip"));
		for (Path path : List.of(zip, this.bundle.root())) {
			Result result = new BundleChecker().check(path);
			assertThat(result.problems()).as(path.toString()).isEmpty();
			assertThat(result.components()).containsExactly("io.zklock.fixture:fixture-lib:1.0.0",
					"io.zklock.fixture:fixture-parent:1.0.0");
			assertThat(result.files()).isEqualTo(5 * 4);
		}
		Run run = run(zip.toString());
		assertThat(run.status()).isZero();
		assertThat(run.out()).startsWith("OK: " + zip + ": 2 components, 20 files");
	}

	@Test
	void shouldNameTheFileAndTheRuleWhenASignatureIsRemoved() throws IOException {
		this.bundle.delete(LIB_JAR + ".asc");
		Path zip = this.bundle.zip(this.temp.resolve("central-bundle.zip"));
		assertThat(new BundleChecker().check(zip).problems())
			.containsExactly(new Problem(LIB_JAR, Rule.SIGNATURE, "no detached PGP signature fixture-lib-1.0.0.jar.asc"));
		Run run = run(zip.toString());
		assertThat(run.status()).isEqualTo(1);
		assertThat(run.out()).contains(
				"io/zklock/fixture/fixture-lib/1.0.0/fixture-lib-1.0.0.jar: [signature] no detached PGP signature fixture-lib-1.0.0.jar.asc\n",
				"FAILED: " + zip + ": 1 problem(s) in 1 file(s)");
	}

	@Test
	void shouldNameThePomsWithoutScm() throws IOException {
		this.bundle.rewrite(PARENT_POM, (pom) -> pom.replaceAll("(?s)<scm>.*</scm>", ""));
		Path zip = this.bundle.zip(this.temp.resolve("central-bundle.zip"));
		assertThat(new BundleChecker().check(zip).problems()).containsExactly(
				new Problem(LIB_POM, Rule.POM_METADATA, "no <scm>, neither here nor in its parents io.zklock.fixture:fixture-parent:1.0.0"),
				new Problem(PARENT_POM, Rule.POM_METADATA, "no <scm>"));
		Run run = run(zip.toString());
		assertThat(run.status()).isEqualTo(1);
		assertThat(run.out()).contains(
				"io/zklock/fixture/fixture-parent/1.0.0/fixture-parent-1.0.0.pom: [pom-metadata] no <scm>\n");
	}

	@ParameterizedTest
	@ValueSource(strings = { "url", "licenses", "developers" })
	void shouldNameThePomsWithoutAnInheritedElement(String element) throws IOException {
		this.bundle.rewrite(PARENT_POM, (pom) -> withoutTopLevel(pom, element));
		assertThat(new BundleChecker().check(this.bundle.root()).problems()).extracting(Problem::file, Problem::rule)
			.containsExactly(tuple(LIB_POM, Rule.POM_METADATA), tuple(PARENT_POM, Rule.POM_METADATA));
	}

	@ParameterizedTest
	@ValueSource(strings = { "name", "description" })
	void shouldNameAPomWithoutItsOwnNameOrDescription(String element) throws IOException {
		this.bundle.rewrite(PARENT_POM, (pom) -> withoutTopLevel(pom, "description"));
		this.bundle.rewrite(LIB_POM, (pom) -> withoutTopLevel(pom, element));
		List<Problem> problems = new BundleChecker().check(this.bundle.root()).problems();
		assertThat(problems).extracting(Problem::file, Problem::rule)
			.contains(tuple(LIB_POM, Rule.POM_METADATA));
		assertThat(problems).filteredOn((problem) -> problem.file().equals(LIB_POM))
			.singleElement()
			.extracting(Problem::message)
			.asString()
			.startsWith("no <" + element + ">");
	}

	@Test
	void shouldTakeEmptyLicensesAndDevelopersForMissing() throws IOException {
		this.bundle.rewrite(PARENT_POM, (pom) -> pom.replaceAll("(?s)<licenses>.*</licenses>", "<licenses/>")
			.replaceAll("(?s)<developers>.*</developers>", "<developers></developers>"));
		assertThat(new BundleChecker().check(this.bundle.root()).problems()).extracting(Problem::message)
			.contains("no <licenses>", "no <developers>");
	}

	@Test
	void shouldRequireMd5AndSha1() throws IOException {
		this.bundle.delete(LIB + "-javadoc.jar.sha1");
		this.bundle.delete(PARENT_POM + ".md5");
		assertThat(new BundleChecker().check(this.bundle.root()).problems()).containsExactly(
				new Problem(LIB + "-javadoc.jar", Rule.CHECKSUM, "no fixture-lib-1.0.0-javadoc.jar.sha1"),
				new Problem(PARENT_POM, Rule.CHECKSUM, "no fixture-parent-1.0.0.pom.md5"));
	}

	@Test
	void shouldRefuseChecksumsThatDoNotMatch() throws IOException {
		Files.writeString(this.bundle.root().resolve(LIB_JAR + ".sha1"), "0".repeat(40));
		assertThat(new BundleChecker().check(this.bundle.root()).problems()).singleElement()
			.satisfies((problem) -> {
				assertThat(problem.file()).isEqualTo(LIB_JAR + ".sha1");
				assertThat(problem.rule()).isEqualTo(Rule.CHECKSUM);
				assertThat(problem.message()).startsWith("does not match fixture-lib-1.0.0.jar");
			});
	}

	@Test
	void shouldRequireSourcesAndJavadocJars() throws IOException {
		for (String suffix : List.of("", ".asc", ".md5", ".sha1")) {
			this.bundle.delete(LIB + "-sources.jar" + suffix);
			this.bundle.delete(LIB + "-javadoc.jar" + suffix);
		}
		assertThat(new BundleChecker().check(this.bundle.root()).problems()).containsExactly(
				new Problem(LIB_JAR, Rule.SOURCES, "no fixture-lib-1.0.0-sources.jar beside it"),
				new Problem(LIB_JAR, Rule.JAVADOC, "no fixture-lib-1.0.0-javadoc.jar beside it"));
	}

	@Test
	void shouldRefuseASnapshotDependency() throws IOException {
		this.bundle.put(LIB_POM, FixtureBundle.libPom("""
				        <dependency>
				            <groupId>org.example</groupId>
				            <artifactId>unreleased</artifactId>
				            <version>2.0-SNAPSHOT</version>
				        </dependency>
				""").getBytes(StandardCharsets.UTF_8));
		assertThat(new BundleChecker().check(this.bundle.root()).problems()).containsExactly(new Problem(LIB_POM,
				Rule.SNAPSHOT,
				"project/dependencies/dependency[org.example:unreleased]/version is 2.0-SNAPSHOT: a release depends on releases only"));
	}

	@Test
	void shouldRefuseASnapshotVersion() throws IOException {
		String pom = "io/zklock/fixture/fixture-parent/1.1.0-SNAPSHOT/fixture-parent-1.1.0-SNAPSHOT.pom";
		this.bundle.put(pom, FixtureBundle.parentPom().replace("<version>1.0.0</version>", "<version>1.1.0-SNAPSHOT</version>")
			.getBytes(StandardCharsets.UTF_8));
		assertThat(new BundleChecker().check(this.bundle.root()).problems()).containsExactly(
				new Problem(pom, Rule.SNAPSHOT, "the version 1.1.0-SNAPSHOT is a SNAPSHOT: Central takes releases only"),
				new Problem(pom, Rule.SNAPSHOT, "project/version is 1.1.0-SNAPSHOT: a release depends on releases only"));
	}

	@Test
	void shouldRefuseASignatureThatIsNoOpenPgpSignature() throws IOException {
		Files.writeString(this.bundle.root().resolve(LIB_POM + ".asc"), "signed, trust me");
		assertThat(new BundleChecker().check(this.bundle.root()).problems())
			.containsExactly(new Problem(LIB_POM + ".asc", Rule.SIGNATURE, "not an ASCII-armored PGP signature"));
	}

	@Test
	void shouldRefuseAFileOutsideAComponentAndAMisnamedOne() throws IOException {
		this.bundle.put("io/zklock/fixture/stray/1.0.0/stray-1.0.0.jar", new byte[] { 1 });
		this.bundle.put("io/zklock/fixture/fixture-lib/1.0.0/other-1.0.0.txt", new byte[] { 1 });
		assertThat(new BundleChecker().check(this.bundle.root()).problems()).extracting(Problem::file, Problem::rule)
			.containsExactlyInAnyOrder(tuple("io/zklock/fixture/fixture-lib/1.0.0/other-1.0.0.txt", Rule.LAYOUT),
					tuple("io/zklock/fixture/stray/1.0.0/stray-1.0.0.jar", Rule.LAYOUT),
					tuple("io/zklock/fixture/stray/1.0.0/stray-1.0.0.jar", Rule.JAR));
	}

	@Test
	void shouldHoldTheBundleToThePublishedSet() throws IOException {
		Result result = new BundleChecker(Set.of("fixture-parent", "fixture-other"), false).check(this.bundle.root());
		assertThat(result.problems()).extracting(Problem::file, Problem::rule)
			.containsExactly(tuple("fixture-other", Rule.PUBLISHED_SET), tuple(LIB_POM, Rule.PUBLISHED_SET));
		Run run = run("--published=fixture-parent,fixture-lib", this.bundle.root().toString());
		assertThat(run.status()).isZero();
	}

	@Test
	void shouldVerifySignaturesWithGpg() throws Exception {
		Path home = gnupgHomeWithThePublicKey();
		assertThat(new BundleChecker(null, true, home).check(this.bundle.root()).problems()).isEmpty();
		this.bundle.tamper(LIB + "-sources.jar",
				FixtureBundle.jar("io/zklock/fixture/Lib.java", "class Changed {}".getBytes(StandardCharsets.UTF_8)));
		assertThat(new BundleChecker(null, true, home).check(this.bundle.root()).problems()).singleElement()
			.satisfies((problem) -> {
				assertThat(problem.file()).isEqualTo(LIB + "-sources.jar.asc");
				assertThat(problem.rule()).isEqualTo(Rule.SIGNATURE);
				assertThat(problem.message())
					.startsWith("gpg --verify does not accept it for fixture-lib-1.0.0-sources.jar: BADSIG ");
			});
	}

	@Test
	void shouldAnswerBadArgumentsWithUsage() {
		assertThat(run().status()).isEqualTo(2);
		assertThat(run("--frobnicate", "x.zip").status()).isEqualTo(2);
		Run missing = run(this.temp.resolve("no-such-bundle.zip").toString());
		assertThat(missing.status()).isEqualTo(2);
		assertThat(missing.err()).startsWith("Cannot read the bundle ");
	}

	/** The POM without one element of {@code <project>} (not the {@code <url>} of a license, say). */
	private static String withoutTopLevel(String pom, String element) {
		return pom.replaceAll("(?s)\n    <" + element + ">.*?</" + element + ">", "");
	}

	/** A GnuPG home holding only the fixtures' public key (no secret key, so no gpg-agent starts). */
	private Path gnupgHomeWithThePublicKey() throws Exception {
		Path home = Files.createDirectory(this.temp.resolve("gnupg"), PosixFilePermissions.asFileAttribute(
				PosixFilePermissions.fromString("rwx------")));
		Path key = Files.writeString(this.temp.resolve("public-key.asc"), FixtureBundle.publicKey());
		Process gpg;
		try {
			gpg = new ProcessBuilder("gpg", "--batch", "--no-tty", "--no-autostart", "--homedir", home.toString(),
					"--import", key.toString())
				.redirectErrorStream(true)
				.start();
		}
		catch (IOException ex) {
			throw new AssertionError("gpg (Debian's gnupg) is needed to verify signatures: apt-get install gnupg", ex);
		}
		String output = new String(gpg.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(gpg.waitFor(1, TimeUnit.MINUTES)).isTrue();
		assertThat(gpg.exitValue()).as("gpg --import of the fixtures' public key:%n%s", output).isZero();
		return home;
	}

	private static Run run(String... args) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		int status = BundleChecker.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
				new PrintStream(err, true, StandardCharsets.UTF_8));
		return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
	}

	private record Run(int status, String out, String err) {
	}

}
