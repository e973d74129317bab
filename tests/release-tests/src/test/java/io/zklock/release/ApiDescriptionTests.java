package io.zklock.release;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ApiDescription} on fixture modules compiled here: it describes what a user sees (public
 * types of the promised packages, the members of a hidden superclass), a removed method fails, an
 * added one passes once the description is rewritten, and a binary-incompatible change is refused
 * within a released major version but taken before the first release and for a new major version.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ApiDescriptionTests {

	/** The fixture module of version 1: an interface, a final class, a hidden base, machinery. */
	private static final Map<String, String> V1 = Map.of(
			"lib/Greeter.java", """
					package lib;
					public interface Greeter {
						String greet(String name);
						default String greetAll(java.util.List<? extends CharSequence> names) { return ""; }
					}
					""",
			"lib/Box.java", """
					package lib;
					public class Box<T extends Comparable<T>> implements java.io.Serializable {
						public static final int LIMIT = 3;
						public static final String NAME = "box";
						public Box(T first, T... rest) { }
						public int size() { return 0; }
						protected void seal() throws java.io.IOException { }
						void packagePrivate() { }
						public static final class Lid { }
						static final class Hidden { }
					}
					""",
			"lib/Base.java", """
					package lib;
					abstract class Base implements Greeter {
						public String greet(String name) { return name; }
						public abstract int weight();
					}
					""",
			"lib/Light.java", """
					package lib;
					public class Light extends Base {
						public int weight() { return 1; }
					}
					""",
			"lib/Tag.java", """
					package lib;
					public @interface Tag {
						String value();
						int order() default 0;
					}
					""",
			"lib/internal/Machine.java", """
					package lib.internal;
					public class Machine { public void run() { } }
					""",
			"lib/support/Helper.java", """
					package lib.support;
					public class Helper { }
					""");

	@TempDir
	Path temp;

	@Test
	void shouldDescribeWhatAUserSees() throws IOException {
		Path classes = compile("v1", V1);
		Path api = this.temp.resolve("api/lib.api");
		Run write = run(classes, api, "1.0.0-SNAPSHOT", true);
		assertThat(write.status()).as(write.err()).isZero();
		assertThat(write.out()).contains("lib: wrote " + api);
		String text = Files.readString(api);
		assertThat(text).contains("version 1.0.0-SNAPSHOT\n")
			.contains("\npublic class lib.Box<T extends java.lang.Comparable<T>>\n"
					+ "  implements java.io.Serializable\n"
					+ "  protected void seal() throws java.io.IOException\n"
					+ "  public <init>(T, T...)\n"
					+ "  public int size()\n"
					+ "  public static final int LIMIT = 3\n"
					+ "  public static final java.lang.String NAME = \"box\"\n")
			.contains("\npublic static final class lib.Box$Lid\n")
			.contains("\npublic interface lib.Greeter\n"
					+ "  public abstract java.lang.String greet(java.lang.String)\n"
					+ "  public default java.lang.String greetAll(java.util.List<? extends java.lang.CharSequence>)\n")
			// the hidden base's members and supertypes are the public subclass's own
			.contains("\npublic class lib.Light\n"
					+ "  implements lib.Greeter\n"
					+ "  public <init>()\n"
					+ "  public int weight()\n"
					+ "  public java.lang.String greet(java.lang.String)\n")
			.contains("\npublic @interface lib.Tag\n"
					+ "  public abstract int order() default …\n"
					+ "  public abstract java.lang.String value()\n")
			.doesNotContain("lib.Base").doesNotContain("Hidden").doesNotContain("packagePrivate")
			.doesNotContain("lib.internal.Machine").doesNotContain("lib.support.Helper");
		assertThat(text).contains("#   ./mvnw -B verify -DskipTests -pl fixture -Dzklock.api.update=true\n");

		Run check = run(classes, api, "1.0.0-SNAPSHOT", false);
		assertThat(check.status()).as(check.err()).isZero();
		assertThat(check.out()).isEqualTo("lib: the public API matches lib.api (5 types, 15 lines)\n");
		// the same classes give the same text
		assertThat(run(classes, api, "1.0.0-SNAPSHOT", true).status()).isZero();
		assertThat(Files.readString(api)).isEqualTo(text);
	}

	@Test
	void shouldFailNamingARemovedMethodAndHowToRewriteTheDescription() throws IOException {
		Path api = describe(V1, "1.0.0");
		Path classes = compile("v2", change(V1, "lib/Box.java", "public int size() { return 0; }", ""));
		Run check = run(classes, api, "1.0.1-SNAPSHOT", false);
		assertThat(check.status()).isEqualTo(1);
		assertThat(check.err()).startsWith("lib 1.0.1-SNAPSHOT: the public API differs from " + api
				+ " (written for 1.0.0):\n  ! removed        lib.Box: public int size()\n")
			.contains("break binary compatibility")
			.contains("a binary-incompatible change needs the next major version, 2.0.0");
	}

	@Test
	void shouldPassAnAddedMethodOnceTheDescriptionIsRewritten() throws IOException {
		Path api = describe(V1, "1.0.0");
		Path classes = compile("v2", change(V1, "lib/Box.java", "public int size()", "public int width() { return 0; }\n\tpublic int size()"));
		Run check = run(classes, api, "1.1.0-SNAPSHOT", false);
		assertThat(check.status()).isEqualTo(1);
		assertThat(check.err()).contains("\n    added          lib.Box: public int width()\n")
			.doesNotContain("break binary compatibility")
			.contains("If the change is meant, rewrite the description with ./mvnw -B verify -DskipTests -pl fixture "
					+ "-Dzklock.api.update=true and commit it with the change");
		Run update = run(classes, api, "1.1.0-SNAPSHOT", true);
		assertThat(update.status()).as(update.err()).isZero();
		assertThat(Files.readString(api)).contains("version 1.1.0-SNAPSHOT\n").contains("  public int width()\n");
		assertThat(run(classes, api, "1.1.0-SNAPSHOT", false).status()).isZero();
	}

	@Test
	void shouldRefuseABinaryIncompatibleRewriteWithinAReleasedMajorVersion() throws IOException {
		Path api = describe(V1, "1.0.0");
		String before = Files.readString(api);
		Path classes = compile("v2", change(V1, "lib/Box.java", "public int size() { return 0; }", ""));
		Run update = run(classes, api, "1.1.0-SNAPSHOT", true);
		assertThat(update.status()).isEqualTo(1);
		assertThat(update.err()).contains("lib 1.1.0-SNAPSHOT keeps the promise of 1.x, whose 1.0.0 is released: a "
				+ "binary-incompatible change needs the next major version, 2.0.0")
			.contains("tests/release-tests/set-version.sh 2.0.0-SNAPSHOT");
		assertThat(Files.readString(api)).isEqualTo(before);

		Run nextMajor = run(classes, api, "2.0.0-SNAPSHOT", true);
		assertThat(nextMajor.status()).as(nextMajor.err()).isZero();
		assertThat(Files.readString(api)).contains("version 2.0.0-SNAPSHOT\n").doesNotContain("size()");
	}

	@Test
	void shouldTakeABinaryIncompatibleChangeBeforeTheFirstRelease() throws IOException {
		Path api = describe(V1, "1.0.0-RC1");
		Path classes = compile("v2", change(V1, "lib/Box.java", "public int size() { return 0; }", ""));
		assertThat(run(classes, api, "1.0.0-SNAPSHOT", false).status()).isEqualTo(1);
		Run update = run(classes, api, "1.0.0-SNAPSHOT", true);
		assertThat(update.status()).as(update.err()).isZero();
		assertThat(run(classes, api, "1.0.0-SNAPSHOT", false).status()).isZero();
	}

	@Test
	void shouldCallANewAbstractMethodOfAnInterfaceIncompatibleAndANewDefaultMethodNot() throws IOException {
		Path api = describe(V1, "1.0.0");
		Map<String, String> withAbstractMethod = change(V1, "lib/Greeter.java", "String greet(String name);",
				"String greet(String name);\n\tString farewell(String name);");
		Path abstractMethod = compile("abstract", change(withAbstractMethod, "lib/Base.java", "public abstract int weight();",
				"public abstract int weight();\n\tpublic String farewell(String name) { return name; }"));
		Run update = run(abstractMethod, api, "1.1.0-SNAPSHOT", true);
		assertThat(update.status()).isEqualTo(1);
		assertThat(update.err()).contains("  ! added abstract lib.Greeter: public abstract java.lang.String farewell(java.lang.String)\n")
			.contains("needs the next major version, 2.0.0");

		Path defaultMethod = compile("default", change(V1, "lib/Greeter.java", "String greet(String name);",
				"String greet(String name);\n\tdefault String farewell(String name) { return name; }"));
		assertThat(run(defaultMethod, api, "1.1.0-SNAPSHOT", true).status()).isZero();
	}

	@Test
	void shouldCallAClassMadeFinalIncompatible() throws IOException {
		Path api = describe(V1, "1.0.0");
		Path classes = compile("final", change(V1, "lib/Box.java", "public class Box", "public final class Box"));
		Run check = run(classes, api, "1.1.0-SNAPSHOT", false);
		assertThat(check.status()).isEqualTo(1);
		assertThat(check.err()).contains("  ! changed type   public class lib.Box<T extends java.lang.Comparable<T>>  ->  "
				+ "public final class lib.Box<T extends java.lang.Comparable<T>>\n");
		assertThat(run(classes, api, "1.1.0-SNAPSHOT", true).status()).isEqualTo(1);
	}

	@Test
	void shouldTakeAnAnnotationElementWithADefaultAsCompatible() throws IOException {
		Path api = describe(V1, "1.0.0");
		Path classes = compile("tag", change(V1, "lib/Tag.java", "int order() default 0;",
				"int order() default 0;\n\tString key() default \"\";"));
		Run update = run(classes, api, "1.1.0-SNAPSHOT", true);
		assertThat(update.status()).as(update.err()).isZero();
		assertThat(Files.readString(api)).contains("  public abstract java.lang.String key() default …\n");
	}

	@Test
	void shouldFailWhenTheDescriptionIsMissing() throws IOException {
		Path classes = compile("v1", V1);
		Run check = run(classes, this.temp.resolve("api/lib.api"), "1.0.0", false);
		assertThat(check.status()).isEqualTo(1);
		assertThat(check.err()).startsWith("lib: no API description at " + this.temp.resolve("api/lib.api")
				+ ". Write it with ./mvnw -B verify -DskipTests -pl fixture -Dzklock.api.update=true");
	}

	@ParameterizedTest(name = "at {0}, written for {1}: {2}")
	@CsvSource({ "1.0.0-SNAPSHOT, 1.0.0-RC1, true", "1.0.0-RC2, 1.0.0-RC1, true", "1.0.0, 1.0.0-RC2, false",
			"1.0.1-SNAPSHOT, 1.0.0, false", "1.1.0-SNAPSHOT, 1.0.0, false", "1.1.0-SNAPSHOT, 1.0.0-RC1, false",
			"2.0.0-SNAPSHOT, 1.4.0, true", "2.0.0-RC1, 2.0.0-SNAPSHOT, true", "2.0.0-SNAPSHOT, 2.0.0, false",
			"0.3.0, 0.2.0, true" })
	void shouldAllowBinaryIncompatibleChangesOnlyBeforeAMajorVersionIsReleased(String version, String written,
			boolean allowed) {
		assertThat(ApiDescription.incompatibleAllowed(version, written)).isEqualTo(allowed);
	}

	private Path describe(Map<String, String> sources, String version) throws IOException {
		Path classes = compile("described", sources);
		Path api = this.temp.resolve("api/lib.api");
		Run write = run(classes, api, version, true);
		assertThat(write.status()).as(write.err()).isZero();
		return api;
	}

	private static Map<String, String> change(Map<String, String> sources, String file, String from, String to) {
		Map<String, String> changed = new LinkedHashMap<>(sources);
		String source = changed.get(file);
		assertThat(source).contains(from);
		changed.put(file, source.replace(from, to));
		return changed;
	}

	private Path compile(String name, Map<String, String> sources) throws IOException {
		Path source = this.temp.resolve(name + "-src");
		Path classes = this.temp.resolve(name + "-classes");
		Files.createDirectories(classes);
		List<String> arguments = new ArrayList<>(List.of("--release", "17", "-d", classes.toString()));
		for (Map.Entry<String, String> entry : sources.entrySet()) {
			Path file = source.resolve(entry.getKey());
			Files.createDirectories(file.getParent());
			Files.writeString(file, entry.getValue());
			arguments.add(file.toString());
		}
		JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
		ByteArrayOutputStream errors = new ByteArrayOutputStream();
		int status = compiler.run(null, null, errors, arguments.toArray(String[]::new));
		assertThat(status).as(errors.toString(StandardCharsets.UTF_8)).isZero();
		return classes;
	}

	private Run run(Path classes, Path api, String version, boolean update) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		int status = ApiDescription.run(new String[] { "--classes", classes.toString(), "--api", api.toString(),
				"--module", "lib", "--version", version, "--exclude", "lib.support", "--update", Boolean.toString(update),
				"--root", this.temp.toString(), "--module-dir", this.temp.resolve("fixture").toString() },
				new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
		return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
	}

	private record Run(int status, String out, String err) {
	}

}
