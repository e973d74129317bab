package io.zklock.interceptor;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.InvalidLockAnnotationException;

import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.Expression;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.Assign;
import org.springframework.expression.spel.ast.FunctionReference;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;

/**
 * Checks, when the annotation is parsed (at start-up), that every variable a key expression
 * refers to will exist when the key is evaluated: otherwise it evaluates to {@code null} at
 * every call. At call time ({@link LockKeyResolver}) the variables are the method's
 * parameters by name (when the class file has them: compiled with {@code -parameters}, or
 * Kotlin with {@code kotlin-reflect}), by position ({@code #p0}, {@code #a0} up to the last
 * argument), {@code #root} and {@code #this}; a variable the expression assigns itself
 * ({@code #x = ...}) exists too. Bean references ({@code @name}) are not variables. The
 * variable references are read from the parsed expression's syntax tree, never from its
 * text, so string literals and property names do not count. Thread-safe.
 */
final class KeyVariables {

	private static final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

	private static final Pattern POSITION = Pattern.compile("[pa](\\d+)");

	private KeyVariables() {
	}

	/**
	 * Checks a key expression against its method.
	 * @param key the parsed expression
	 * @param keySource the expression as written, for messages
	 * @param method the annotated method, whose parameters the expression sees
	 * @param site the annotation and method, for messages, such as
	 * {@code "@DistributedLock on Orders.ship(String)"}
	 * @param methodDescription the method, for messages, such as {@code "Orders.ship(String)"}
	 * @throws InvalidLockAnnotationException naming the first variable that will not exist
	 */
	static void check(Expression key, String keySource, Method method, String site, String methodDescription) {
		if (!(key instanceof SpelExpression spel)) {
			return;
		}
		List<String> referenced = new ArrayList<>();
		Set<String> assigned = new HashSet<>();
		collect(spel.getAST(), referenced, assigned);
		String[] names = parameterNames.getParameterNames(method);
		for (String variable : referenced) {
			String problem = problem(variable, method, names, assigned);
			if (problem != null) {
				String written = "'#" + variable + "'";
				throw new InvalidLockAnnotationException(methodDescription, site + " has a key '" + keySource
						+ "' that refers to '" + variable + "'" + problem + ", so " + written
						+ " would be null at every call.", action(method, names), null);
			}
		}
	}

	/** What is wrong with a variable, or {@code null} if it will exist at call time. */
	private static @Nullable String problem(String variable, Method method, String @Nullable [] names,
			Set<String> assigned) {
		if (variable.equals("root") || variable.equals("this") || assigned.contains(variable)) {
			return null;
		}
		int count = method.getParameterCount();
		Matcher position = POSITION.matcher(variable);
		if (position.matches()) {
			int index = Integer.parseInt(position.group(1));
			return (index < count) ? null : ", argument " + index + ", but the method takes " + count + " argument"
					+ ((count != 1) ? "s" : "");
		}
		if (names == null && count > 0) {
			return " by name, but " + method.getDeclaringClass().getName() + " was compiled without -parameters: its "
					+ "parameter names are not in the class file";
		}
		if (names != null && Arrays.asList(names).contains(variable)) {
			return null;
		}
		return ", which is no parameter of the method ("
				+ ((count == 0) ? "it has none" : "its parameters: " + String.join(", ", names)) + ")";
	}

	private static String action(Method method, String @Nullable [] names) {
		if (method.getParameterCount() == 0) {
			return "Key the lock by what the method can see ('#root.target', beans such as '@name'), or put a constant "
					+ "part in path.";
		}
		if (names == null && method.getParameterCount() > 0) {
			return "Compile with -parameters (Maven: <parameters>true</parameters> in the maven-compiler-plugin "
					+ "configuration, which spring-boot-starter-parent sets; Gradle: "
					+ "options.compilerArgs.add('-parameters')), or refer to arguments by position: '#p0' is the first.";
		}
		String byName = (names != null && names.length > 0) ? "by name ('#" + names[0] + "') or " : "";
		return "Refer to a parameter " + byName + "by position ('#p0' is the first); '#root.args', '#root.target' "
				+ "and beans ('@name') can be used too.";
	}

	/** The variables an expression refers to, in order, and those it assigns. */
	private static void collect(SpelNode node, List<String> referenced, Set<String> assigned) {
		if (node instanceof VariableReference) {
			referenced.add(node.toStringAST().substring(1));
		}
		else if (node instanceof FunctionReference) {
			String function = node.toStringAST();
			referenced.add(function.substring(1, function.indexOf('(')));
		}
		else if (node instanceof Assign && node.getChildCount() > 0 && node.getChild(0) instanceof VariableReference) {
			assigned.add(node.getChild(0).toStringAST().substring(1));
		}
		for (int i = 0; i < node.getChildCount(); i++) {
			collect(node.getChild(i), referenced, assigned);
		}
	}

}
