package io.zklock.boot35;

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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.InvalidLockAnnotationException;
import io.zklock.autoconfigure.LockedMethodsAutoConfiguration;
import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.lock.LockMode;
import io.zklock.test.EmbeddedZooKeeper;
import io.zklock.test.TestZooKeeper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A key that names a parameter of a class compiled without {@code -parameters}, on Spring Boot
 * 3.5 (Spring Framework 6.2 no longer falls back to the class file's local variable table, so
 * the name is gone): start-up fails naming the flag and positions, and keys by position work.
 * The class is compiled here with {@code javax.tools}, since the build compiles every class with
 * {@code -parameters}. The Boot 4 test ({@code LockKeyVariablesTests}) covers every case.
 */
@EmbeddedZooKeeper
@Timeout(60)
class Boot35KeyVariablesTests {

	@TempDir
	Path classes;

	@Test
	void shouldFailNamingTheFlagAndPositionsWhenTheClassHasNoParameterNames(TestZooKeeper zookeeper) throws Exception {
		Class<?> type = compileWithoutParameters("orders.Shipping", """
				package orders;

				import io.zklock.annotation.DistributedLock;

				public class Shipping {

					@DistributedLock(path = "shipments", key = "#id")
					public void ship(String id) {
					}

				}
				""");
		context(zookeeper, type).run((context) -> {
			assertThat(context).hasFailed();
			InvalidLockAnnotationException failure = null;
			for (Throwable cause = context.getStartupFailure(); cause != null; cause = cause.getCause()) {
				if (cause instanceof InvalidLockAnnotationException invalid) {
					failure = invalid;
				}
			}
			assertThat(failure).as("an InvalidLockAnnotationException in the start-up failure").isNotNull();
			assertThat(failure.getDescription()).isEqualTo("@DistributedLock on Shipping.ship(String) has a key '#id' "
					+ "that refers to 'id' by name, but orders.Shipping was compiled without -parameters: its "
					+ "parameter names are not in the class file, so '#id' would be null at every call.");
			assertThat(failure.getAction()).isEqualTo("Compile with -parameters (Maven: <parameters>true</parameters> "
					+ "in the maven-compiler-plugin configuration, which spring-boot-starter-parent sets; Gradle: "
					+ "options.compilerArgs.add('-parameters')), or refer to arguments by position: '#p0' is the "
					+ "first.");
		});
	}

	@Test
	void shouldLockByPositionInAClassWithoutParameterNames(TestZooKeeper zookeeper) throws Exception {
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
		context(zookeeper, type).run((context) -> {
			assertThat(context).hasNotFailed();
			Method track = type.getMethod("track", String.class, int.class);
			assertThat(track.invoke(context.getBean(type), "eu", 42)).isEqualTo("tracking/eu-42");
		});
	}

	private static ApplicationContextRunner context(TestZooKeeper zookeeper, Class<?> type) {
		return new ApplicationContextRunner().withClassLoader(type.getClassLoader())
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ZkLockAutoConfiguration.class,
					LockedMethodsAutoConfiguration.class))
			.withPropertyValues(zookeeper.propertyValues())
			.withBean(type);
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

}
