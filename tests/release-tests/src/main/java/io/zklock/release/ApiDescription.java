package io.zklock.release;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The description of a module's public API, written from its compiled classes and compared with the
 * one checked in beside the module ({@code api/<artifactId>.api}), as OkHttp keeps its {@code api/}
 * files: a change to a public signature fails the build unless the description changes in the same
 * commit, and a binary-incompatible change needs a new major version once that major version has
 * been released.
 *
 * <p>
 * The description lists every public type of the module's promised packages (every package but
 * those named {@code internal} and those given with {@code --exclude}), with their public and
 * protected fields, constructors and methods: the members of a non-public superclass count as the
 * type's own, as a user sees them; synthetic members and bridges do not. Generic signatures, thrown
 * exceptions and the values of constants are written as the class files have them; annotations and
 * parameter names are not. Types are sorted by name and members by their line, so the text is the
 * same on every JDK that reads the class files.
 *
 * <p>
 * One file, JDK only, run from a clone without building it (the build runs it in {@code verify} of
 * each published module with exec-maven-plugin):
 *
 * <pre>
 * java tests/release-tests/src/main/java/io/zklock/release/ApiDescription.java --classes lock-core/target/classes \
 *     --api lock-core/api/zklock-core.api --module zklock-core --version 1.0.0 [--exclude io.zklock.interceptor,...] \
 *     [--update true] [--root . --module-dir lock-core]
 * </pre>
 *
 * A difference fails (exit status 1) naming each removed, changed and added line, and says whether it
 * breaks binary compatibility (a removed or changed line; an added abstract method) and how to
 * rewrite the description. With {@code --update true} the description is rewritten instead, unless the
 * change breaks compatibility while the version promises the API of a released major version: that
 * is allowed only at major version 0 and while the version is a pre-release of a new major version
 * (N.0.0-RC1, N.0.0-SNAPSHOT) whose N.0.0 the description was not written for. Exit status 2: bad
 * arguments or an unreadable description. See docs/releasing.md, "The API description".
 */
public final class ApiDescription {

	/** How the build rewrites a description, named in the file and in failures. */
	private static final String UPDATE_SWITCH = "-Dzklock.api.update=true";

	private static final Pattern VERSION = Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+)(?:-([A-Za-z0-9.]+))?");

	/** Marks an annotation element that has a default value (the value itself is not compared). */
	private static final String ANNOTATION_DEFAULT = " default …";

	private static final Set<String> KINDS = Set.of("class", "interface", "enum", "record", "@interface");

	private ApiDescription() {
	}

	public static void main(String[] args) {
		System.exit(run(args, System.out, System.err));
	}

	/**
	 * Runs the check (or the update) as the command line says.
	 * @return 0 when the description matches (or was rewritten), 1 when it differs or a rewrite is
	 * refused, 2 for bad arguments or an unreadable description
	 */
	public static int run(String[] args, PrintStream out, PrintStream err) {
		Map<String, String> options = new HashMap<>();
		for (int i = 0; i < args.length; i++) {
			if (!args[i].startsWith("--") || i + 1 >= args.length) {
				err.println("ApiDescription: expected --name value pairs, got '" + args[i] + "'");
				return 2;
			}
			options.put(args[i].substring(2), args[++i]);
		}
		for (String required : List.of("classes", "api", "module", "version")) {
			if (!options.containsKey(required)) {
				err.println("ApiDescription: --" + required + " is missing; usage: --classes DIR --api FILE --module NAME "
						+ "--version VERSION [--exclude PACKAGE,...] [--update true] [--root DIR --module-dir DIR]");
				return 2;
			}
		}
		Path classes = Path.of(options.get("classes"));
		Path api = Path.of(options.get("api"));
		String module = options.get("module");
		String version = options.get("version");
		if (!VERSION.matcher(version).matches()) {
			err.println("ApiDescription: version '" + version + "' is not a version such as 1.0.0 or 1.1.0-SNAPSHOT");
			return 2;
		}
		List<String> excluded = new ArrayList<>();
		for (String name : options.getOrDefault("exclude", "").split(",")) {
			if (!name.isBlank()) {
				excluded.add(name.trim());
			}
		}
		boolean update = Boolean.parseBoolean(options.getOrDefault("update", "false"));
		String command = updateCommand(options.get("root"), options.get("module-dir"));
		if (!Files.isDirectory(classes)) {
			err.println("ApiDescription: " + module + ": no classes at " + classes + "; compile the module first");
			return 2;
		}
		Map<String, List<String>> current;
		try {
			current = describe(classes, excluded);
		}
		catch (IOException | UncheckedIOException | IllegalStateException ex) {
			err.println("ApiDescription: " + module + ": cannot read the classes of " + classes + ": " + ex.getMessage());
			return 2;
		}
		String written = write(module, version, excluded, command, current);
		if (!Files.exists(api)) {
			if (update) {
				return save(api, written, module, out, err, "wrote");
			}
			err.println(module + ": no API description at " + api + ". Write it with " + command
					+ " and commit it (docs/releasing.md, \"The API description\").");
			return 1;
		}
		Description recorded;
		try {
			recorded = Description.parse(Files.readString(api, StandardCharsets.UTF_8));
		}
		catch (IOException | IllegalArgumentException ex) {
			err.println("ApiDescription: " + module + ": cannot read " + api + ": " + ex.getMessage() + ". Rewrite it with "
					+ command + ".");
			return 2;
		}
		Diff diff = Diff.of(recorded.types(), current);
		if (diff.isEmpty()) {
			out.println(module + ": the public API matches " + api.getFileName() + " (" + count(current) + ")");
			return 0;
		}
		boolean allowed = !diff.isIncompatible() || incompatibleAllowed(version, recorded.version());
		if (update && allowed) {
			return save(api, written, module, out, err, "rewrote");
		}
		StringBuilder report = new StringBuilder();
		report.append(module).append(" ").append(version).append(": the public API differs from ").append(api)
			.append(" (written for ").append(recorded.version()).append("):\n");
		diff.lines().forEach((line) -> report.append("  ").append(line).append('\n'));
		if (diff.isIncompatible()) {
			report.append("The lines marked '!' break binary compatibility (a removed or changed signature, a new "
					+ "abstract method): code compiled against the old API fails against the new one.\n");
		}
		if (!allowed) {
			int major = parse(version).major();
			report.append(module).append(" ").append(version).append(" keeps the promise of ").append(major)
				.append(".x, whose ").append(major).append(".0.0 is released: a binary-incompatible change needs the "
						+ "next major version, ")
				.append(major + 1).append(".0.0. Keep the old signature beside the new one (deprecated) and remove it in ")
				.append(major + 1).append(".0.0, or set the version with tests/release-tests/set-version.sh ")
				.append(major + 1).append(".0.0-SNAPSHOT, then rewrite the description with ").append(command)
				.append(".\n");
		}
		else {
			report.append("If the change is meant, rewrite the description with ").append(command)
				.append(" and commit it with the change; a reviewer reads the API change in its diff.\n");
		}
		report.append("A type whose source was moved or deleted stays in target/classes until ./mvnw clean: "
				+ "clean before you rewrite the description, or it lists the old type.\n");
		err.print(report);
		return 1;
	}

	/**
	 * Whether a binary-incompatible change may be made at {@code version}, given the version the
	 * description was last written for: at major version 0, and while the version is a pre-release
	 * of a new major version N.0.0 that the description was not written for at its release.
	 */
	static boolean incompatibleAllowed(String version, String recordedVersion) {
		Version current = parse(version);
		if (current.major() == 0) {
			return true;
		}
		if (!current.isPreReleaseOfMajor()) {
			return false;
		}
		Matcher recorded = VERSION.matcher(recordedVersion);
		if (!recorded.matches()) {
			return true;
		}
		Version written = parse(recordedVersion);
		return !(written.major() == current.major() && !written.isPreReleaseOfMajor());
	}

	private static Version parse(String version) {
		Matcher matcher = VERSION.matcher(version);
		if (!matcher.matches()) {
			throw new IllegalArgumentException("not a version: " + version);
		}
		return new Version(Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2)),
				Integer.parseInt(matcher.group(3)), matcher.group(4));
	}

	private static String updateCommand(String root, String moduleDir) {
		if (root == null || moduleDir == null) {
			return "./mvnw -B verify -DskipTests " + UPDATE_SWITCH;
		}
		Path relative = Path.of(root).toAbsolutePath().normalize().relativize(Path.of(moduleDir).toAbsolutePath().normalize());
		String module = relative.toString().replace('\\', '/');
		return "./mvnw -B verify -DskipTests " + (module.isEmpty() ? "" : "-pl " + module + " ") + UPDATE_SWITCH;
	}

	private static int save(Path api, String text, String module, PrintStream out, PrintStream err, String what) {
		try {
			if (api.getParent() != null) {
				Files.createDirectories(api.getParent());
			}
			Files.writeString(api, text, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			err.println("ApiDescription: " + module + ": cannot write " + api + ": " + ex.getMessage());
			return 2;
		}
		out.println(module + ": " + what + " " + api + "; commit it with the change");
		return 0;
	}

	private static String count(Map<String, List<String>> types) {
		int members = types.values().stream().mapToInt((lines) -> lines.size() - 1).sum();
		return types.size() + " types, " + members + " lines";
	}

	/** The description's text. */
	static String write(String module, String version, List<String> excluded, String command,
			Map<String, List<String>> types) {
		StringBuilder text = new StringBuilder();
		text.append("# The public API of ").append(module).append(", as the build compares it (ApiDescription): the public\n");
		text.append("# types of its packages, with their public and protected members; left out: packages named\n");
		text.append("# internal").append(excluded.isEmpty() ? "" : ", " + String.join(", ", excluded)).append(".\n");
		text.append("# Written by the build, not by hand: after a change to the API run\n#   ").append(command).append("\n");
		text.append("# and commit this file with the change (docs/releasing.md, \"The API description\").\n");
		text.append("version ").append(version).append("\n");
		for (List<String> lines : types.values()) {
			text.append('\n').append(lines.get(0)).append('\n');
			for (String line : lines.subList(1, lines.size())) {
				text.append("  ").append(line).append('\n');
			}
		}
		return text.toString();
	}

	/**
	 * The public API of the classes under {@code root}: per type (by binary name), its header line then
	 * its supertype and member lines, sorted.
	 */
	static Map<String, List<String>> describe(Path root, List<String> excluded) throws IOException {
		Map<String, ClassFile> all = new HashMap<>();
		try (Stream<Path> files = Files.walk(root)) {
			for (Path file : (Iterable<Path>) files.filter((path) -> path.toString().endsWith(".class"))::iterator) {
				String name = file.getFileName().toString();
				if (name.equals("module-info.class") || name.equals("package-info.class")) {
					continue;
				}
				try (InputStream in = Files.newInputStream(file)) {
					ClassFile classFile = ClassFile.read(in);
					all.put(classFile.name(), classFile);
				}
			}
		}
		Map<String, List<String>> types = new TreeMap<>();
		for (ClassFile type : all.values()) {
			if (!isPromised(type.packageName(), excluded) || !isVisible(type, all)) {
				continue;
			}
			types.put(type.name().replace('/', '.'), describe(type, all));
		}
		return types;
	}

	private static boolean isPromised(String packageName, List<String> excluded) {
		if (("." + packageName + ".").contains(".internal.")) {
			return false;
		}
		for (String prefix : excluded) {
			if (packageName.equals(prefix) || packageName.startsWith(prefix + ".")) {
				return false;
			}
		}
		return true;
	}

	/** A type a user can name: public (or protected, nested) all the way out. */
	private static boolean isVisible(ClassFile type, Map<String, ClassFile> all) {
		ClassFile.Nesting nesting = type.nesting();
		if (nesting == null) {
			return (type.access() & ClassFile.ACC_PUBLIC) != 0;
		}
		if (nesting.outer() == null || (nesting.access() & (ClassFile.ACC_PUBLIC | ClassFile.ACC_PROTECTED)) == 0) {
			return false;
		}
		ClassFile outer = all.get(nesting.outer());
		return outer != null && isVisible(outer, all);
	}

	private static List<String> describe(ClassFile type, Map<String, ClassFile> all) {
		List<String> lines = new ArrayList<>();
		lines.add(header(type));
		Set<String> body = new TreeSet<>();
		// supertypes: those of the type and of its non-public superclasses, as a user sees them
		Map<String, String> members = new LinkedHashMap<>();
		ClassFile.Signatures signatures = type.supertypes();
		String superclass = signatures.superclass();
		Set<String> interfaces = new TreeSet<>(signatures.interfaces());
		collect(type, members, true);
		ClassFile hidden = (type.superName() != null) ? all.get(type.superName()) : null;
		while (hidden != null && (hidden.access() & ClassFile.ACC_PUBLIC) == 0) {
			ClassFile.Signatures above = hidden.supertypes();
			superclass = above.superclass();
			interfaces.addAll(above.interfaces());
			collect(hidden, members, false);
			hidden = (hidden.superName() != null) ? all.get(hidden.superName()) : null;
		}
		boolean isInterface = (type.access() & ClassFile.ACC_INTERFACE) != 0;
		if (!isInterface && superclass != null && !superclass.equals("java.lang.Object")) {
			body.add("extends " + superclass);
		}
		for (String implemented : interfaces) {
			if (!(isInterface && implemented.equals("java.lang.annotation.Annotation")
					&& (type.access() & ClassFile.ACC_ANNOTATION) != 0)) {
				body.add((isInterface ? "extends " : "implements ") + implemented);
			}
		}
		body.addAll(members.values());
		lines.addAll(body);
		return lines;
	}

	/** The members of {@code type} that a user sees, keyed by name and descriptor; the first wins. */
	private static void collect(ClassFile type, Map<String, String> members, boolean own) {
		boolean isInterface = (type.access() & ClassFile.ACC_INTERFACE) != 0;
		for (ClassFile.Member field : type.fields()) {
			if (isApi(field.access())) {
				members.putIfAbsent("field " + field.name(), field(field));
			}
		}
		for (ClassFile.Member method : type.methods()) {
			if (!isApi(method.access()) || method.name().equals("<clinit>") || (!own && method.name().equals("<init>"))) {
				continue;
			}
			members.putIfAbsent(method.name() + method.descriptor(), method(method, isInterface));
		}
	}

	private static boolean isApi(int access) {
		return (access & (ClassFile.ACC_PUBLIC | ClassFile.ACC_PROTECTED)) != 0
				&& (access & (ClassFile.ACC_SYNTHETIC | ClassFile.ACC_BRIDGE)) == 0;
	}

	private static String header(ClassFile type) {
		int access = (type.nesting() != null) ? type.nesting().access() : type.access();
		StringBuilder line = new StringBuilder();
		line.append(((access & ClassFile.ACC_PROTECTED) != 0) ? "protected " : "public ");
		if ((access & ClassFile.ACC_STATIC) != 0) {
			line.append("static ");
		}
		String kind;
		if ((type.access() & ClassFile.ACC_ANNOTATION) != 0) {
			kind = "@interface";
		}
		else if ((type.access() & ClassFile.ACC_INTERFACE) != 0) {
			kind = "interface";
		}
		else if ((type.access() & ClassFile.ACC_ENUM) != 0) {
			kind = "enum";
		}
		else if ("java/lang/Record".equals(type.superName())) {
			kind = "record";
		}
		else {
			kind = "class";
		}
		if (kind.equals("class") && (access & ClassFile.ACC_ABSTRACT) != 0) {
			line.append("abstract ");
		}
		if (kind.equals("class") && (access & ClassFile.ACC_FINAL) != 0) {
			line.append("final ");
		}
		if (type.sealed()) {
			line.append("sealed ");
		}
		line.append(kind).append(' ').append(type.name().replace('/', '.'));
		line.append(type.supertypes().typeParameters());
		return line.toString();
	}

	private static String field(ClassFile.Member field) {
		StringBuilder line = new StringBuilder(modifiers(field.access(), false, false));
		line.append(Types.fieldType(field.signature() != null ? field.signature() : field.descriptor()));
		line.append(' ').append(field.name());
		if (field.constant() != null) {
			line.append(" = ").append(field.constant());
		}
		return line.toString();
	}

	private static String method(ClassFile.Member method, boolean inInterface) {
		boolean isDefault = inInterface && (method.access() & (ClassFile.ACC_ABSTRACT | ClassFile.ACC_STATIC)) == 0;
		StringBuilder line = new StringBuilder(modifiers(method.access(), true, isDefault));
		Types.MethodType type = Types.methodType(method.signature() != null ? method.signature() : method.descriptor());
		List<String> exceptions = (method.signature() != null && !type.exceptions().isEmpty()) ? type.exceptions()
				: method.exceptions();
		if (!type.typeParameters().isEmpty()) {
			line.append(type.typeParameters()).append(' ');
		}
		List<String> parameters = new ArrayList<>(type.parameters());
		if (method.signature() != null && parameters.size() < Types.methodType(method.descriptor()).parameters().size()) {
			// a signature may leave out synthetic parameters (an inner class's outer instance): take the descriptor's
			parameters = new ArrayList<>(Types.methodType(method.descriptor()).parameters());
		}
		if ((method.access() & ClassFile.ACC_VARARGS) != 0 && !parameters.isEmpty()) {
			String last = parameters.get(parameters.size() - 1);
			if (last.endsWith("[]")) {
				parameters.set(parameters.size() - 1, last.substring(0, last.length() - 2) + "...");
			}
		}
		if (method.name().equals("<init>")) {
			line.append("<init>");
		}
		else {
			line.append(type.returnType()).append(' ').append(method.name());
		}
		line.append('(').append(String.join(", ", parameters)).append(')');
		if (!exceptions.isEmpty()) {
			line.append(" throws ").append(String.join(", ", exceptions));
		}
		if (method.hasDefault()) {
			line.append(ANNOTATION_DEFAULT);
		}
		return line.toString();
	}

	private static String modifiers(int access, boolean method, boolean isDefault) {
		StringBuilder words = new StringBuilder();
		words.append(((access & ClassFile.ACC_PROTECTED) != 0) ? "protected " : "public ");
		if ((access & ClassFile.ACC_STATIC) != 0) {
			words.append("static ");
		}
		if ((access & ClassFile.ACC_FINAL) != 0) {
			words.append("final ");
		}
		if (method && (access & ClassFile.ACC_ABSTRACT) != 0) {
			words.append("abstract ");
		}
		if (isDefault) {
			words.append("default ");
		}
		return words.toString();
	}

	/** A version's parts. */
	record Version(int major, int minor, int patch, String qualifier) {

		/** N.0.0-something: before the release of a new major version. */
		boolean isPreReleaseOfMajor() {
			return this.minor == 0 && this.patch == 0 && this.qualifier != null;
		}

	}

	/** A description read back: the version it was written for and its lines per type. */
	record Description(String version, Map<String, List<String>> types) {

		static Description parse(String text) {
			String version = null;
			Map<String, List<String>> types = new TreeMap<>();
			List<String> current = null;
			int number = 0;
			for (String line : text.split("\n", -1)) {
				number++;
				if (line.isBlank() || line.startsWith("#")) {
					continue;
				}
				if (line.startsWith("version ")) {
					version = line.substring("version ".length()).trim();
				}
				else if (line.startsWith("  ")) {
					if (current == null) {
						throw new IllegalArgumentException("line " + number + " belongs to no type: '" + line + "'");
					}
					current.add(line.substring(2));
				}
				else {
					String name = typeName(line);
					if (name == null) {
						throw new IllegalArgumentException("line " + number + " is neither a type nor a member: '" + line + "'");
					}
					current = new ArrayList<>();
					current.add(line);
					types.put(name, current);
				}
			}
			if (version == null) {
				throw new IllegalArgumentException("it has no 'version' line");
			}
			return new Description(version, types);
		}

		private static String typeName(String header) {
			String[] words = header.split(" ");
			for (int i = 0; i + 1 < words.length; i++) {
				if (KINDS.contains(words[i])) {
					String name = words[i + 1];
					int generic = name.indexOf('<');
					return (generic >= 0) ? name.substring(0, generic) : name;
				}
			}
			return null;
		}

	}

	/** What changed between two descriptions, line by line. */
	record Diff(List<String> lines, boolean isIncompatible) {

		boolean isEmpty() {
			return this.lines.isEmpty();
		}

		static Diff of(Map<String, List<String>> before, Map<String, List<String>> after) {
			List<String> lines = new ArrayList<>();
			boolean incompatible = false;
			Set<String> names = new TreeSet<>(before.keySet());
			names.addAll(after.keySet());
			for (String name : names) {
				List<String> old = before.get(name);
				List<String> now = after.get(name);
				if (now == null) {
					lines.add("! removed type   " + old.get(0));
					incompatible = true;
					continue;
				}
				if (old == null) {
					lines.add("  added type     " + now.get(0));
					continue;
				}
				if (!old.get(0).equals(now.get(0))) {
					lines.add("! changed type   " + old.get(0) + "  ->  " + now.get(0));
					incompatible = true;
				}
				Set<String> oldMembers = new TreeSet<>(old.subList(1, old.size()));
				Set<String> newMembers = new TreeSet<>(now.subList(1, now.size()));
				for (String member : oldMembers) {
					if (!newMembers.contains(member)) {
						lines.add("! removed        " + name + ": " + member);
						incompatible = true;
					}
				}
				boolean implementable = !now.get(0).contains(" final ") && !now.get(0).contains(" enum ")
						&& !now.get(0).contains(" record ");
				for (String member : newMembers) {
					if (!oldMembers.contains(member)) {
						boolean breaking = implementable && isAbstract(member);
						lines.add((breaking ? "! added abstract " : "  added          ") + name + ": " + member);
						incompatible |= breaking;
					}
				}
			}
			return new Diff(lines, incompatible);
		}

		/** An abstract method that implementations must add; an annotation element with a default needs nothing. */
		private static boolean isAbstract(String member) {
			return (member.startsWith("public abstract ") || member.startsWith("protected abstract "))
					&& !member.endsWith(ANNOTATION_DEFAULT);
		}

	}

	/** Java types in words, from descriptors and generic signatures (JVMS 4.3, 4.7.9.1). */
	static final class Types {

		private final String text;

		private int position;

		private Types(String text) {
			this.text = text;
		}

		record MethodType(String typeParameters, List<String> parameters, String returnType, List<String> exceptions) {
		}

		record ClassType(String typeParameters, String superclass, List<String> interfaces) {
		}

		static String fieldType(String signature) {
			return new Types(signature).type();
		}

		static MethodType methodType(String signature) {
			Types reader = new Types(signature);
			String typeParameters = reader.typeParameters();
			reader.expect('(');
			List<String> parameters = new ArrayList<>();
			while (reader.peek() != ')') {
				parameters.add(reader.type());
			}
			reader.expect(')');
			String returnType = reader.type();
			List<String> exceptions = new ArrayList<>();
			while (reader.position < reader.text.length() && reader.peek() == '^') {
				reader.position++;
				exceptions.add(reader.type());
			}
			return new MethodType(typeParameters, parameters, returnType, exceptions);
		}

		static ClassType classType(String signature) {
			Types reader = new Types(signature);
			String typeParameters = reader.typeParameters();
			String superclass = reader.type();
			List<String> interfaces = new ArrayList<>();
			while (reader.position < reader.text.length()) {
				interfaces.add(reader.type());
			}
			return new ClassType(typeParameters, superclass, interfaces);
		}

		private String typeParameters() {
			if (this.position >= this.text.length() || peek() != '<') {
				return "";
			}
			this.position++;
			List<String> parameters = new ArrayList<>();
			while (peek() != '>') {
				int colon = this.text.indexOf(':', this.position);
				String name = this.text.substring(this.position, colon);
				this.position = colon;
				List<String> bounds = new ArrayList<>();
				while (peek() == ':') {
					this.position++;
					if (startsReferenceType()) {
						bounds.add(type());
					}
				}
				bounds.remove("java.lang.Object");
				parameters.add(bounds.isEmpty() ? name : name + " extends " + String.join(" & ", bounds));
			}
			this.position++;
			return "<" + String.join(", ", parameters) + ">";
		}

		/** Whether a bound follows (a class bound may be left out: {@code T::Ljava/lang/Comparable;}). */
		private boolean startsReferenceType() {
			char first = peek();
			return first == 'L' || first == 'T' || first == '[';
		}

		private String type() {
			char tag = this.text.charAt(this.position++);
			switch (tag) {
				case 'B': return "byte";
				case 'C': return "char";
				case 'D': return "double";
				case 'F': return "float";
				case 'I': return "int";
				case 'J': return "long";
				case 'S': return "short";
				case 'Z': return "boolean";
				case 'V': return "void";
				case '[': return type() + "[]";
				case 'T': {
					int end = this.text.indexOf(';', this.position);
					String name = this.text.substring(this.position, end);
					this.position = end + 1;
					return name;
				}
				case 'L': return classTypeSignature();
				default: throw new IllegalStateException("unexpected '" + tag + "' in the signature " + this.text);
			}
		}

		private String classTypeSignature() {
			StringBuilder name = new StringBuilder();
			while (true) {
				char c = this.text.charAt(this.position++);
				if (c == ';') {
					return name.toString();
				}
				if (c == '/') {
					name.append('.');
				}
				else if (c == '.') {
					name.append('$');
				}
				else if (c == '<') {
					List<String> arguments = new ArrayList<>();
					while (peek() != '>') {
						char wildcard = peek();
						if (wildcard == '*') {
							this.position++;
							arguments.add("?");
						}
						else if (wildcard == '+') {
							this.position++;
							arguments.add("? extends " + type());
						}
						else if (wildcard == '-') {
							this.position++;
							arguments.add("? super " + type());
						}
						else {
							arguments.add(type());
						}
					}
					this.position++;
					name.append('<').append(String.join(", ", arguments)).append('>');
				}
				else {
					name.append(c);
				}
			}
		}

		private char peek() {
			return this.text.charAt(this.position);
		}

		private void expect(char expected) {
			if (this.text.charAt(this.position++) != expected) {
				throw new IllegalStateException("expected '" + expected + "' in the signature " + this.text);
			}
		}

	}

	/** What the description needs of a class file (JVMS chapter 4). */
	record ClassFile(String name, int access, String superName, List<String> interfaceNames, String signature,
			Nesting nesting, boolean sealed, List<Member> fields, List<Member> methods) {

		static final int ACC_PUBLIC = 0x0001;

		static final int ACC_PROTECTED = 0x0004;

		static final int ACC_STATIC = 0x0008;

		static final int ACC_FINAL = 0x0010;

		static final int ACC_BRIDGE = 0x0040;

		static final int ACC_VARARGS = 0x0080;

		static final int ACC_INTERFACE = 0x0200;

		static final int ACC_ABSTRACT = 0x0400;

		static final int ACC_SYNTHETIC = 0x1000;

		static final int ACC_ANNOTATION = 0x2000;

		static final int ACC_ENUM = 0x4000;

		/** The class's own entry of its InnerClasses attribute: its flags as declared, and its outer class. */
		record Nesting(int access, String outer) {
		}

		record Member(int access, String name, String descriptor, String signature, String constant,
				List<String> exceptions, boolean hasDefault) {
		}

		/** The generic supertypes, from the Signature attribute or the plain names. */
		record Signatures(String typeParameters, String superclass, List<String> interfaces) {
		}

		String packageName() {
			int slash = this.name.lastIndexOf('/');
			return (slash < 0) ? "" : this.name.substring(0, slash).replace('/', '.');
		}

		Signatures supertypes() {
			if (this.signature != null) {
				Types.ClassType type = Types.classType(this.signature);
				return new Signatures(type.typeParameters(), type.superclass(), type.interfaces());
			}
			List<String> interfaces = new ArrayList<>();
			for (String implemented : this.interfaceNames) {
				interfaces.add(implemented.replace('/', '.'));
			}
			return new Signatures("", (this.superName != null) ? this.superName.replace('/', '.') : null, interfaces);
		}

		static ClassFile read(InputStream stream) throws IOException {
			DataInputStream in = new DataInputStream(stream);
			if (in.readInt() != 0xCAFEBABE) {
				throw new IllegalStateException("not a class file");
			}
			in.readUnsignedShort();
			in.readUnsignedShort();
			int count = in.readUnsignedShort();
			Object[] pool = new Object[count];
			int[] tags = new int[count];
			for (int i = 1; i < count; i++) {
				int tag = in.readUnsignedByte();
				tags[i] = tag;
				switch (tag) {
					case 1 -> pool[i] = in.readUTF();
					case 3 -> pool[i] = in.readInt();
					case 4 -> pool[i] = in.readFloat();
					case 5 -> {
						pool[i] = in.readLong();
						i++;
					}
					case 6 -> {
						pool[i] = in.readDouble();
						i++;
					}
					case 7, 8, 16, 19, 20 -> pool[i] = in.readUnsignedShort();
					case 9, 10, 11, 12, 17, 18 -> {
						in.readUnsignedShort();
						in.readUnsignedShort();
					}
					case 15 -> {
						in.readUnsignedByte();
						in.readUnsignedShort();
					}
					default -> throw new IllegalStateException("unknown constant pool tag " + tag);
				}
			}
			int access = in.readUnsignedShort();
			String name = className(pool, in.readUnsignedShort());
			int superIndex = in.readUnsignedShort();
			String superName = (superIndex == 0) ? null : className(pool, superIndex);
			List<String> interfaces = new ArrayList<>();
			for (int i = in.readUnsignedShort(); i > 0; i--) {
				interfaces.add(className(pool, in.readUnsignedShort()));
			}
			List<Member> fields = members(in, pool, tags);
			List<Member> methods = members(in, pool, tags);
			String signature = null;
			Nesting nesting = null;
			boolean sealed = false;
			for (int i = in.readUnsignedShort(); i > 0; i--) {
				String attribute = (String) pool[in.readUnsignedShort()];
				int length = in.readInt();
				if (attribute.equals("Signature")) {
					signature = (String) pool[in.readUnsignedShort()];
				}
				else if (attribute.equals("InnerClasses")) {
					for (int j = in.readUnsignedShort(); j > 0; j--) {
						int inner = in.readUnsignedShort();
						int outer = in.readUnsignedShort();
						in.readUnsignedShort();
						int innerAccess = in.readUnsignedShort();
						if (inner != 0 && className(pool, inner).equals(name)) {
							nesting = new Nesting(innerAccess, (outer == 0) ? null : className(pool, outer));
						}
					}
				}
				else {
					sealed |= attribute.equals("PermittedSubclasses");
					in.skipNBytes(length);
				}
			}
			return new ClassFile(name, access, superName, interfaces, signature, nesting, sealed, fields, methods);
		}

		private static List<Member> members(DataInputStream in, Object[] pool, int[] tags) throws IOException {
			List<Member> members = new ArrayList<>();
			for (int i = in.readUnsignedShort(); i > 0; i--) {
				int access = in.readUnsignedShort();
				String name = (String) pool[in.readUnsignedShort()];
				String descriptor = (String) pool[in.readUnsignedShort()];
				String signature = null;
				String constant = null;
				boolean hasDefault = false;
				List<String> exceptions = new ArrayList<>();
				for (int j = in.readUnsignedShort(); j > 0; j--) {
					String attribute = (String) pool[in.readUnsignedShort()];
					int length = in.readInt();
					if (attribute.equals("Signature")) {
						signature = (String) pool[in.readUnsignedShort()];
					}
					else if (attribute.equals("ConstantValue")) {
						constant = constant(pool, tags, in.readUnsignedShort());
					}
					else if (attribute.equals("Exceptions")) {
						for (int k = in.readUnsignedShort(); k > 0; k--) {
							exceptions.add(className(pool, in.readUnsignedShort()).replace('/', '.'));
						}
					}
					else {
						hasDefault |= attribute.equals("AnnotationDefault");
						in.skipNBytes(length);
					}
				}
				members.add(new Member(access, name, descriptor, signature, constant, exceptions, hasDefault));
			}
			return members;
		}

		private static String className(Object[] pool, int index) {
			return (String) pool[(Integer) pool[index]];
		}

		private static String constant(Object[] pool, int[] tags, int index) {
			return switch (tags[index]) {
				case 8 -> quoted((String) pool[(Integer) pool[index]]);
				case 4 -> Float.toString((Float) pool[index]) + "f";
				case 5 -> pool[index] + "L";
				case 6 -> Double.toString((Double) pool[index]);
				default -> String.valueOf(pool[index]);
			};
		}

		private static String quoted(String value) {
			StringBuilder text = new StringBuilder("\"");
			for (char c : value.toCharArray()) {
				switch (c) {
					case '"' -> text.append("\\\"");
					case '\\' -> text.append("\\\\");
					case '\n' -> text.append("\\n");
					case '\t' -> text.append("\\t");
					case '\r' -> text.append("\\r");
					default -> {
						if (c < 0x20 || c > 0x7e) {
							text.append(String.format("\\u%04x", (int) c));
						}
						else {
							text.append(c);
						}
					}
				}
			}
			return text.append('"').toString();
		}

	}

}
