package io.zklock.autoconfigure.shutdown;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.zklock.autoconfigure.ChildJvm;
import io.zklock.fixtures.ZooKeeperServers;
import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Graceful shutdown with a real SIGTERM: {@link GracefulShutdownApp} runs in a child JVM, holds
 * {@code orders/1} in a method that works for three seconds, waits for {@code orders/2} (held
 * here), and tries a new lock every 20 ms. This JVM queues a rival for {@code orders/1}, then
 * sends SIGTERM while the body runs. No lock may be granted in the child once it refused one
 * because it is shutting down, the body must finish and release its lock, the rival must get the
 * lock from that release (the deletion's zxid comes before that of the session's end, which took
 * the waiting node on {@code orders/2}), and once the child has exited no node of its session may
 * be left on the server.
 */
@Tag("slow")
class GracefulShutdownTests {

	private static final Duration BOUND = Duration.ofSeconds(60);

	@Test
	@Timeout(150)
	void shouldFinishTheRunningBodyGrantNothingNewAndLeaveNothingOnSigterm(@TempDir Path directory) throws Exception {
		Path output = directory.resolve("graceful-shutdown-app.log");
		ExecutorService rivalThread = Executors.newSingleThreadExecutor();
		try (TestingServer server = ZooKeeperServers.startOnLoopback();
				CuratorFramework client = CuratorFrameworkFactory.builder()
					.connectString(server.getConnectString())
					.namespace("zklock")
					.retryPolicy(new RetryOneTime(100))
					.build()) {
			client.start();
			assertThat(client.blockUntilConnected(30, TimeUnit.SECONDS)).isTrue();
			ILockByCurator rival = new ExclusiveLockByCurator(client, "/locks");
			LockHandle orders2 = rival.acquire("orders/2", LockMode.EXCLUSIVE);
			Process child = new ProcessBuilder(command(server.getConnectString())).redirectErrorStream(true)
				.redirectOutput(output.toFile())
				.start();
			try {
				await().atMost(BOUND).until(() -> read(output).contains("BODY-STARTED")
						&& read(output).contains("ATTEMPT 1 GRANTED")
						&& client.getChildren().forPath("/locks/orders/2").size() == 2);
				long childSession = Long.parseUnsignedLong(line(read(output), "SESSION ").split(" ")[1], 16);
				Future<long[]> rivalGrant = rivalThread.submit(() -> {
					try (LockHandle lock = rival.acquire("orders/1", LockMode.EXCLUSIVE)) {
						long grantedAt = System.currentTimeMillis();
						// the zxid of the last change of orders/1's children: the deletion of the child's node
						long childNodeDeleted = client.checkExists().forPath("/locks/orders/1").getPzxid();
						return new long[] { grantedAt, childNodeDeleted, lock.fencingToken() };
					}
				});
				await().atMost(BOUND).until(() -> client.getChildren().forPath("/locks/orders/1").size() == 2);

				child.destroy();   // SIGTERM
				assertThat(child.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS)).as("child exited; output:\n%s",
						read(output))
					.isTrue();
				long[] grant = rivalGrant.get(BOUND.toSeconds(), TimeUnit.SECONDS);
				long nodesLeft = ownedBy(client, "/locks", childSession);
				// the zxid of the deletion of the child's waiting node on orders/2: its session's end
				long childSessionEnded = client.checkExists().forPath("/locks/orders/2").getPzxid();
				orders2.release();

				String log = read(output);
				assertThat(child.exitValue()).as("exit code (SIGTERM); output:\n%s", log).isEqualTo(143);
				assertThat(log).contains("zklock stopped granting locks").contains("BODY-DONE");
				List<String> attempts = log.lines().filter((line) -> line.startsWith("ATTEMPT ")).toList();
				int firstRefusal = indexOf(attempts, " REFUSED ");
				assertThat(firstRefusal).as("a refused attempt; output:\n%s", log).isNotNegative();
				assertThat(attempts.get(firstRefusal)).endsWith(
						"REFUSED Not acquiring the EXCLUSIVE lock on 'other/" + (firstRefusal + 1) + "': the application "
								+ "is shutting down (zklock grants no new lock once the application context stops; "
								+ "locks already held are released as their work returns)");
				assertThat(attempts.subList(firstRefusal, attempts.size())).as("attempts once one was refused")
					.allMatch((line) -> line.contains(" REFUSED "));
				long releasedAt = Long.parseLong(line(log, "RELEASED orders/1 RELEASED ").split(" ")[3]);
				long bodyDoneAt = Long.parseLong(line(log, "BODY-DONE ").split(" ")[1]);
				assertThat(grant[0]).as("rival's grant after the body's work").isGreaterThanOrEqualTo(bodyDoneAt);
				assertThat(grant[1]).as("the child's release of orders/1 (zxid) came before its session ended")
					.isLessThan(childSessionEnded);
				assertThat(nodesLeft).as("nodes of the child's session once it exited").isZero();
				assertThat(client.getChildren().forPath("/locks/orders/1")).isEmpty();
				System.out.println("Graceful shutdown: body done " + bodyDoneAt + ", released " + releasedAt
						+ ", rival granted " + grant[0] + " (" + (grant[0] - releasedAt) + " ms after the release; "
						+ "a round trip here: " + roundTripMicros(client) + " us), child nodes left: " + nodesLeft);
			}
			finally {
				child.destroyForcibly();
				rivalThread.shutdownNow();
			}
		}
	}

	private static long ownedBy(CuratorFramework client, String path, long session) throws Exception {
		Stat stat = client.checkExists().forPath(path);
		if (stat == null) {
			return 0;
		}
		long owned = (stat.getEphemeralOwner() == session) ? 1 : 0;
		try {
			for (String child : client.getChildren().forPath(path)) {
				owned += ownedBy(client, path + "/" + child, session);
			}
		}
		catch (KeeperException.NoNodeException ex) {
			// deleted meanwhile
		}
		return owned;
	}

	private static long roundTripMicros(CuratorFramework client) throws Exception {
		List<Long> micros = new ArrayList<>();
		for (int i = 0; i < 9; i++) {
			long start = System.nanoTime();
			client.checkExists().forPath("/locks");
			micros.add((System.nanoTime() - start) / 1000);
		}
		return micros.stream().sorted().toList().get(4);
	}

	private static int indexOf(List<String> lines, String part) {
		for (int i = 0; i < lines.size(); i++) {
			if (lines.get(i).contains(part)) {
				return i;
			}
		}
		return -1;
	}

	private static String line(String log, String prefix) {
		return log.lines()
			.filter((line) -> line.startsWith(prefix))
			.findFirst()
			.orElseThrow(() -> new AssertionError("No line '" + prefix + "...' in:\n" + log));
	}

	private static List<String> command(String connectString) {
		return ChildJvm.command(GracefulShutdownApp.class, List.of("-Dbody-millis=3000"),
				List.of("--spring.main.banner-mode=off",
						"--logging.config=classpath:io/zklock/autoconfigure/embedded/command-line-app-logback.xml",
						"--zklock.zookeeper.connect-string=" + connectString));
	}

	private static String read(Path file) throws IOException {
		return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "(no output)";
	}

}
