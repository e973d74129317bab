package io.zklock.lock;

import java.time.Duration;
import java.util.List;

import io.zklock.internal.LockPaths;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

import static io.zklock.lock.ZkTestSupport.NAMESPACE;
import static io.zklock.lock.ZkTestSupport.ROOT;
import static io.zklock.lock.ZkTestSupport.children;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Lock paths and lock roots: bad input is refused with a message naming the bad value, and
 * nothing is created in ZooKeeper.
 */
class LockPathsTests extends ZkServerTest {

	@ParameterizedTest
	@NullSource
	@ValueSource(strings = { "", "   ", "a//b", "a/./b", "../x", "a/..", "a/", "/", "//a", "a\u0000b", "a\u0001b",
			"a/\ud800", "\t" })
	void shouldRejectABadLockPathNamingIt(String lockPath) {
		assertThatIllegalArgumentException().isThrownBy(() -> LockPaths.normalize(lockPath, ROOT))
			.withMessageContaining("Lock path '" + LockPaths.escape(lockPath) + "' is invalid")
			.withMessageContaining(ROOT);
		assertThatIllegalArgumentException().isThrownBy(() -> LockPaths.toZooKeeperPath(lockPath, ROOT, true))
			.withMessageContaining("'" + LockPaths.escape(lockPath) + "'");
	}

	/**
	 * A control character in a bad lock path is written as an escape, so that the message reads as
	 * the value was written (before, 'a\u0000b' printed as 'ab').
	 */
	@Test
	void shouldEscapeControlCharactersOfABadLockPath() {
		assertThatIllegalArgumentException().isThrownBy(() -> LockPaths.normalize("a\u0000b", ROOT))
			.withMessageStartingWith("Lock path 'a\\u0000b' is invalid: ")
			.withMessageNotContaining("\u0000");
		assertThatIllegalArgumentException().isThrownBy(() -> LockPaths.normalize("\t", ROOT))
			.withMessageStartingWith("Lock path '\\t' is invalid: it is blank");
		assertThat(LockPaths.escape("orders/42")).isEqualTo("orders/42");
		assertThat(LockPaths.escape("a\u0001\u007f\nb")).isEqualTo("a\\u0001\\u007f\\nb");
	}

	@Test
	void shouldSayWhichRuleTheLockPathBreaks() {
		assertThatIllegalArgumentException().isThrownBy(() -> LockPaths.normalize("orders//x", ROOT))
			.withMessageContaining("empty segment");
		assertThatIllegalArgumentException().isThrownBy(() -> LockPaths.normalize("orders/../x", ROOT))
			.withMessageContaining("'..'");
		assertThatIllegalArgumentException().isThrownBy(() -> LockPaths.normalize("a/./b", ROOT))
			.withMessageContaining("'.'");
		assertThatIllegalArgumentException().isThrownBy(() -> LockPaths.normalize(null, ROOT))
			.withMessageContaining("null");
		assertThatIllegalArgumentException().isThrownBy(() -> LockPaths.normalize(" ", ROOT))
			.withMessageContaining("blank");
		assertThatIllegalArgumentException().isThrownBy(() -> LockPaths.normalize("a\u0000b", ROOT))
			.withMessageContaining("null character");
	}

	@Test
	void shouldAcceptAndNormalizeGoodLockPaths() {
		assertThat(LockPaths.normalize("orders/42", ROOT)).isEqualTo("orders/42");
		assertThat(LockPaths.normalize("/orders/42", ROOT)).isEqualTo("orders/42");
		assertThat(LockPaths.normalize("a.b/..c/x-y_z:1", ROOT)).isEqualTo("a.b/..c/x-y_z:1");
		assertThat(LockPaths.toZooKeeperPath("orders/42", ROOT, true)).isEqualTo("/locks/orders/42");
		assertThat(LockPaths.toZooKeeperPath("zookeeper", "/", true)).isEqualTo("/zookeeper");
	}

	@Test
	void shouldRefuseTheReservedZookeeperTreeOnlyWithoutANamespace() {
		assertThatIllegalArgumentException().isThrownBy(() -> LockPaths.validateRoot("/zookeeper", false))
			.withMessageContaining("'/zookeeper'");
		assertThatIllegalArgumentException().isThrownBy(() -> LockPaths.validateRoot("/zookeeper/locks", false))
			.withMessageContaining("'/zookeeper/locks'");
		assertThat(LockPaths.validateRoot("/zookeeper", true)).isEqualTo("/zookeeper");
		assertThat(LockPaths.validateRoot("/zookeeperish", false)).isEqualTo("/zookeeperish");
		assertThatIllegalArgumentException().isThrownBy(() -> LockPaths.toZooKeeperPath("zookeeper/quota", "/", false))
			.withMessageContaining("'zookeeper/quota'")
			.withMessageContaining("/zookeeper");
		assertThatIllegalArgumentException().isThrownBy(() -> LockPaths.toZooKeeperPath("zookeeper", "/", false))
			.withMessageContaining("'zookeeper'");
	}

	@ParameterizedTest
	@NullSource
	@ValueSource(strings = { "", " ", "locks", "/locks/", "/locks//x", "/locks\u0000" })
	void shouldRejectABadLockRootNamingIt(String rootPath) {
		assertThatIllegalArgumentException().isThrownBy(() -> LockPaths.validateRoot(rootPath, true))
			.withMessageContaining("Lock root '" + rootPath + "' is invalid");
	}

	@Test
	@Timeout(30)
	void shouldCreateNothingInZooKeeperForBadInput() throws Exception {
		CuratorFramework client = this.clients.newClient();
		ExclusiveLockByCurator lock = new ExclusiveLockByCurator(client, ROOT);
		for (String bad : new String[] { null, "", "  ", "a//b", "a/./b", "../x", "a/", "a\u0000b", "a\u0001b" }) {
			assertThatIllegalArgumentException().as("lock path %s", bad)
				.isThrownBy(() -> lock.tryAcquire(bad, LockMode.EXCLUSIVE, Duration.ZERO))
				.withMessageContaining("'" + LockPaths.escape(bad) + "'");
			assertThatIllegalArgumentException().isThrownBy(() -> lock.acquire(bad, LockMode.EXCLUSIVE))
				.withMessageContaining("'" + LockPaths.escape(bad) + "'");
			assertThatIllegalArgumentException().isThrownBy(() -> lock.acquireDistributedLock(bad))
				.withMessageContaining("'" + LockPaths.escape(bad) + "'");
		}
		assertThatIllegalArgumentException()
			.isThrownBy(() -> lock.tryAcquire("orders", LockMode.EXCLUSIVE, Duration.ofMillis(-1)))
			.withMessageContaining("-1ms")
			.withMessageContaining("'orders'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> lock.tryAcquire("orders", LockMode.EXCLUSIVE, (Duration) null))
			.withMessageContaining("'orders'");
		assertThatIllegalArgumentException().isThrownBy(() -> lock.tryAcquire("orders", null, Duration.ZERO))
			.withMessageContaining("'orders'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> lock.executeLocked("orders", LockMode.EXCLUSIVE, Duration.ofSeconds(-5), (h) -> "x"))
			.withMessageContaining("-5s");

		CuratorFramework plain = this.clients.newClient(null, null);
		assertThat(plain.checkExists().forPath("/" + NAMESPACE + ROOT)).as("nothing created under the root")
			.isNull();
	}

	@Test
	@Timeout(30)
	void shouldKeepAClientWithoutNamespaceOutOfTheReservedZookeeperTree() throws Exception {
		CuratorFramework plain = this.clients.newClient(null, null);
		List<String> reservedBefore = children(plain, "/zookeeper");

		assertThatIllegalArgumentException().isThrownBy(() -> new LockEngine(plain, "/zookeeper"))
			.withMessageContaining("'/zookeeper'");
		assertThatIllegalArgumentException().isThrownBy(() -> new ExclusiveLockByCurator(plain, "/zookeeper/locks"))
			.withMessageContaining("'/zookeeper/locks'");

		ExclusiveLockByCurator atRoot = new ExclusiveLockByCurator(plain, "/");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> atRoot.tryAcquire("zookeeper/x", LockMode.EXCLUSIVE, Duration.ZERO))
			.withMessageContaining("'zookeeper/x'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> atRoot.tryAcquire("/zookeeper", LockMode.EXCLUSIVE, Duration.ZERO))
			.withMessageContaining("'/zookeeper'");
		assertThat(children(plain, "/zookeeper")).isEqualTo(reservedBefore);

		// a namespaced client may use the name: it lives under the namespace
		CuratorFramework namespaced = this.clients.newClient();
		LockHandle handle = new ExclusiveLockByCurator(namespaced, "/zookeeper").tryAcquire("x", Duration.ofSeconds(10))
			.orElseThrow();
		assertThat(plain.checkExists().forPath("/" + NAMESPACE + "/zookeeper/x")).isNotNull();
		handle.release();
		assertThat(children(plain, "/zookeeper")).isEqualTo(reservedBefore);
	}

}
