package io.zklock.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class against its own in-process ZooKeeper server (a real one, Curator's
 * {@code TestingServer}, on a free loopback port, with its data in a temporary directory).
 *
 * <pre class="code">
 * &#064;EmbeddedZooKeeper
 * &#064;SpringBootTest
 * class OrderServiceTests {
 *
 *     &#064;Autowired TestZooKeeper zookeeper;  // or a TestZooKeeper test-method parameter
 *     &#064;Autowired LockRecorder locks;
 *     …
 * }
 * </pre>
 *
 * <ul>
 * <li>The server starts before the class's first test and stops after its last, when its
 * temporary directory is deleted; nested classes share the server of their enclosing
 * class.</li>
 * <li>A Spring test context of the class (such as {@code @SpringBootTest}) connects to it:
 * {@code zklock.zookeeper.connect-string} points at the server, and
 * {@code zklock.zookeeper.namespace} is fresh for the class, so no two classes see each
 * other's lock nodes; an embedded server of the application
 * ({@code zklock.zookeeper.embedded.enabled}) is switched off. Properties a test sets
 * inline ({@code @SpringBootTest(properties = …)}) still win. The context also gets a
 * {@link TestZooKeeper} and a {@link LockRecorder} bean, and it is closed after the class,
 * before the server stops, so its client never outlives the server.</li>
 * <li>Without Spring, a test method or lifecycle method takes a {@link TestZooKeeper}
 * parameter; {@link TestZooKeeper#propertyValues()} suits
 * {@code ApplicationContextRunner.withPropertyValues(…)}.</li>
 * </ul>
 *
 * @see TestZooKeeper
 * @see EmbeddedZooKeeperExtension
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(EmbeddedZooKeeperExtension.class)
public @interface EmbeddedZooKeeper {

}
