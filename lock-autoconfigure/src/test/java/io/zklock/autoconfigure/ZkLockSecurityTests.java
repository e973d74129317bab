package io.zklock.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Digest authentication on a real server: with credentials set, lock nodes and their
 * parents are creator-only, so an anonymous client or one with other credentials can
 * neither delete a holder's node nor create nodes under the lock root.
 */
@Timeout(60)
@ExtendWith(OutputCaptureExtension.class)
class ZkLockSecurityTests {

	private TestingServer server;

	private ApplicationContextRunner contextRunner;

	@BeforeEach
	void startServer() throws Exception {
		this.server = new TestingServer(true);
		this.contextRunner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ZkLockAutoConfiguration.class))
			.withPropertyValues("zklock.zookeeper.connect-string=" + this.server.getConnectString());
	}

	@AfterEach
	void stopServer() throws Exception {
		this.server.close();
	}

	@Test
	void shouldRefuseOthersDeletingAHeldLockNodeOrCreatingUnderTheRoot(CapturedOutput output) {
		this.contextRunner.withPropertyValues("zklock.zookeeper.auth.credentials=locker:s3cret").run((context) -> {
			try (LockHandle lock = context.getBean(ILockByCurator.class).acquire("orders/1", LockMode.EXCLUSIVE)) {
				String node = "/zklock" + lock.nodePath();
				for (CuratorFramework other : List.of(client(null), client("intruder:guess"))) {
					try (other) {
						assertThatExceptionOfType(KeeperException.NoAuthException.class)
							.isThrownBy(() -> other.delete().forPath(node));
						assertThatExceptionOfType(KeeperException.NoAuthException.class)
							.isThrownBy(() -> other.create().forPath("/zklock/locks/squatter"));
						assertThatExceptionOfType(KeeperException.NoAuthException.class)
							.isThrownBy(() -> other.create()
								.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
								.forPath("/zklock/locks/orders/1/lock-"));
					}
					assertThat(context.getBean(CuratorFramework.class).checkExists().forPath(lock.nodePath()))
						.as("still there")
						.isNotNull();
				}
				CuratorFramework client = context.getBean(CuratorFramework.class);
				assertThat(client.getACL().forPath("/locks")).containsExactlyElementsOf(creatorOnly(client));
			}
		});
		assertThat(output).doesNotContain("s3cret");
	}

	@Test
	void shouldWarnAboutAnOpenLockRoot(CapturedOutput output) throws Exception {
		createOpenRoot();
		this.contextRunner.withPropertyValues("zklock.zookeeper.auth.credentials=locker:s3cret")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).containsOnlyOnce("The lock root /locks lets world:anyone create or delete nodes under it")
			.doesNotContain("s3cret");
	}

	@Test
	void shouldFailStartUpOnAnOpenLockRootWhenAsked() throws Exception {
		createOpenRoot();
		this.contextRunner
			.withPropertyValues("zklock.zookeeper.auth.credentials=locker:s3cret",
					"zklock.zookeeper.auth.fail-on-open-acl=true")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(new ZkLockFailureAnalyzer().analyze(context.getStartupFailure()).getDescription())
					.contains("lets world:anyone create or delete");
			});
	}

	@Test
	void shouldFailStartUpWithCredentialsOtherThanTheRootCreators() {
		this.contextRunner.withPropertyValues("zklock.zookeeper.auth.credentials=locker:s3cret")
			.run((context) -> context.getBean(ILockByCurator.class).acquire("x", LockMode.EXCLUSIVE).release());
		this.contextRunner.withPropertyValues("zklock.zookeeper.auth.credentials=locker:wrong").run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new ZkLockFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("may not read the ACL of the lock root /locks")
				.doesNotContain("wrong");
			assertThat(analysis.getAction()).contains("zklock.root-path");
		});
	}

	private void createOpenRoot() throws Exception {
		try (CuratorFramework anonymous = client(null)) {
			anonymous.create().creatingParentsIfNeeded().forPath("/zklock/locks");
		}
	}

	private static List<ACL> creatorOnly(CuratorFramework client) throws Exception {
		// CREATOR_ALL_ACL as stored: the creator's digest id with all permissions
		List<ACL> acl = client.getACL().forPath("/locks");
		assertThat(acl).hasSize(1);
		assertThat(acl.get(0).getPerms()).isEqualTo(ZooDefs.Perms.ALL);
		assertThat(acl.get(0).getId().getScheme()).isEqualTo("digest");
		assertThat(acl.get(0).getId().getId()).startsWith("locker:");
		return acl;
	}

	private CuratorFramework client(String credentials) throws InterruptedException {
		CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
			.connectString(this.server.getConnectString())
			.retryPolicy(new RetryOneTime(100));
		if (credentials != null) {
			builder.authorization("digest", credentials.getBytes(StandardCharsets.UTF_8));
		}
		CuratorFramework client = builder.build();
		client.start();
		client.blockUntilConnected();
		return client;
	}

}
