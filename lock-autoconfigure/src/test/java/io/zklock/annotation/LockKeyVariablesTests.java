package io.zklock.annotation;

import java.io.File;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;

import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.zklock.lock.LockMode;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The variables a key expression refers to are checked against the method's parameters at
 * start-up: a class compiled without {@code -parameters} (its parameter names are not in the
 * class file, so {@code #id} would be {@code null} at every call) and a name that is no
 * parameter fail start-up; positions, {@code #root}, {@code #this}, beans and variables the
 * expression assigns itself are fine. The class without {@code -parameters} is compiled here,
 * with {@code javax.tools}, since the build compiles every class with it.
 */
@Timeout(60)
@Tag("slow")
class LockKeyVariablesTests extends ZkAnnotationTest {

	@TempDir
	Path classes;

	@Test
	void shouldFailNamingTheFlagAndPositionsWhenTheClassHasNoParameterNames() throws Exception {
		Class<?> type = compileWithoutParameters("orders.Shipping", """
				package orders;

				import io.zklock.annotation.DistributedLock;

				public class Shipping {

					@DistributedLock(path = "shipments", key = "#id")
					public void ship(String id) {
					}

				}
				""");
		InvalidLockAnnotationException failure = refused(type);
		assertThat(failure.getDescription()).isEqualTo("@DistributedLock on Shipping.ship(String) has a key '#id' "
				+ "that refers to 'id' by name, but orders.Shipping was compiled without -parameters: its parameter "
				+ "names are not in the class file, so '#id' would be null at every call.");
		assertThat(failure.getAction()).isEqualTo("Compile with -parameters (Maven: <parameters>true</parameters> in "
				+ "the maven-compiler-plugin configuration, which spring-boot-starter-parent sets; Gradle: "
				+ "options.compilerArgs.add('-parameters')), or refer to arguments by position: '#p0' is the first.");
	}

	@Test
	void shouldLockByPositionInAClassWithoutParameterNames() throws Exception {
		Class<?> type = compileWithoutParameters("orders.Tracking", """
				package orders;

				import io.zklock.annotation.DistributedLock;
				import io.zklock.annotation.LockContext;

				public class Tracking {

					@DistributedLock(path = "tracking", key = "#p0 + '-' + #a1")
					public String track(String region, int id) {
						return LockContext.currentLock().orElseThrow().lockPath();
					}

				}
				""");
		context(type).run((context) -> {
			assertThat(context).hasNotFailed();
			Object bean = context.getBean(type);
			Method track = type.getMethod("track", String.class, int.class);
			assertThat(track.invoke(bean, "eu", 42)).isEqualTo("tracking/eu-42");
		});
	}

	@Test
	void shouldFailNamingTheParametersWhenAKeyNamesNoParameter() {
		InvalidLockAnnotationException failure = refused(new Object() {
			@DistributedLock(path = "orders", key = "#orderId")
			public void ship(String id, int quantity) {
			}
		});
		assertThat(failure.getDescription()).endsWith(".ship(String, int) has a key '#orderId' that refers to "
				+ "'orderId', which is no parameter of the method (its parameters: id, quantity), so '#orderId' would "
				+ "be null at every call.");
		assertThat(failure.getAction()).isEqualTo("Refer to a parameter by name ('#id') or by position ('#p0' is the "
				+ "first); '#root.args', '#root.target' and beans ('@name') can be used too.");
	}

	@Test
	void shouldFailWhenAPositionIsBeyondTheParameters() {
		InvalidLockAnnotationException failure = refused(new Object() {
			@DistributedSemaphore(path = "reports", permits = 2, key = "#p0 + #a1")
			public void render(String report) {
			}
		});
		assertThat(failure.getDescription()).endsWith(".render(String) has a key '#p0 + #a1' that refers to "
				+ "'a1', argument 1, but the method takes 1 argument, so '#a1' would be null at every call.");
	}

	@Test
	void shouldFailWhenAMethodWithoutParametersNamesOne() {
		InvalidLockAnnotationException failure = refused(new Object() {
			@DistributedLock(path = "reports", key = "#report")
			public void render() {
			}
		});
		assertThat(failure.getDescription()).endsWith(".render() has a key '#report' that refers to 'report', "
				+ "which is no parameter of the method (it has none), so '#report' would be null at every call.");
	}

	@Test
	void shouldAcceptPositionsRootThisBeansAndAssignedVariables() {
		lockingContext().withBean("regions", Regions.class).withBean(Keys.class).run((context) -> {
			assertThat(context).hasNotFailed();
			Keys keys = context.getBean(Keys.class);
			assertThat(keys.all("eu", List.of("1", "2"))).containsExactly("keys/eu-1", "keys/eu-2");
			assertThat(keys.positional("eu", 7)).containsExactly("keys/eu-7");
			assertThat(keys.rooted("eu")).containsExactly("keys/Keys-eu-west");
			assertThat(keys.assigned("eu")).containsExactly("keys/EU-2");
		});
	}

	private ApplicationContextRunner context(Class<?> type) {
		return lockingContext().withClassLoader(type.getClassLoader()).withBean(type);
	}

	@SuppressWarnings("unchecked")
	private InvalidLockAnnotationException refused(Object bean) {
		return refused(bean.getClass(),
				lockingContext().withBean("refused", (Class<Object>) bean.getClass(), () -> bean));
	}

	private InvalidLockAnnotationException refused(Class<?> type) {
		return refused(type, context(type));
	}

	private static InvalidLockAnnotationException refused(Class<?> type, ApplicationContextRunner runner) {
		InvalidLockAnnotationException[] found = new InvalidLockAnnotationException[1];
		runner.run((context) -> {
			assertThat(context).as(type.getName()).hasFailed();
			for (Throwable cause = context.getStartupFailure(); cause != null; cause = cause.getCause()) {
				if (cause instanceof InvalidLockAnnotationException invalid) {
					found[0] = invalid;
				}
			}
		});
		assertThat(found[0]).as("an InvalidLockAnnotationException in the start-up failure").isNotNull();
		return found[0];
	}

	/** Compiles one class as a build without {@code -parameters} would, and loads it. */
	private Class<?> compileWithoutParameters(String className, String source) throws Exception {
		JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
		JavaFileObject file = new SimpleJavaFileObject(
				URI.create("string:///" + className.replace('.', '/') + JavaFileObject.Kind.SOURCE.extension),
				JavaFileObject.Kind.SOURCE) {

			@Override
			public CharSequence getCharContent(boolean ignoreEncodingErrors) {
				return source;
			}

		};
		String classPath = location(DistributedLock.class) + File.pathSeparator + location(LockMode.class);
		DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
		boolean compiled = compiler
			.getTask(null, null, diagnostics,
					List.of("--release", "17", "-classpath", classPath, "-d", this.classes.toString()), null,
					List.of(file))
			.call();
		assertThat(compiled).as(diagnostics.getDiagnostics().toString()).isTrue();
		URLClassLoader loader = new URLClassLoader(new URL[] { this.classes.toUri().toURL() },
				getClass().getClassLoader());
		Class<?> type = loader.loadClass(className);
		assertThat(type.getMethods()).filteredOn((method) -> method.getDeclaringClass() == type)
			.allSatisfy((method) -> assertThat(method.getParameters())
				.allSatisfy((parameter) -> assertThat(parameter.isNamePresent()).isFalse()));
		return type;
	}

	private static String location(Class<?> type) throws URISyntaxException {
		return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
	}

	public static class Regions {

		public String west(String region) {
			return region + "-west";
		}

	}

	static class Keys {

		@DistributedLock(path = "keys", key = "#ids.![#region + '-' + #this]")
		public List<String> all(String region, List<String> ids) {
			return paths();
		}

		@DistributedLock(path = "keys", key = "#p0 + '-' + #a1")
		public List<String> positional(String region, int id) {
			return paths();
		}

		@DistributedLock(path = "keys", key = "#root.target.class.simpleName + '-' + @regions.west(#root.args[0])")
		public List<String> rooted(String region) {
			return paths();
		}

		@DistributedLock(path = "keys", key = "(#upper = #region.toUpperCase()) + '-' + #upper.length()")
		public List<String> assigned(String region) {
			return paths();
		}

		private static List<String> paths() {
			return LockContext.currentLocks().stream().map((lock) -> lock.lockPath()).toList();
		}

	}

}
