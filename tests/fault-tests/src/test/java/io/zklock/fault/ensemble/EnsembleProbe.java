package io.zklock.fault.ensemble;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.zklock.fixtures.FourLetterWords;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;

import static org.awaitility.Awaitility.await;

/**
 * Looks at an ensemble from outside: which member leads, which lock nodes exist, which
 * watches the members keep on lock nodes.
 */
public final class EnsembleProbe {

	/** Where zklock's lock nodes live: the contenders' namespace plus the lock root. */
	public static final String LOCK_ROOT = "/zklock/locks";

	private EnsembleProbe() {
	}

	/** Waits until exactly one running member says it leads; returns its number. */
	public static int awaitLeader(Ensemble ensemble) {
		return await("a leader in " + ensemble.description()).atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> leader(ensemble), (leader) -> leader >= 0);
	}

	/** The member that says it leads, or -1 if none does (or more than one). */
	public static int leader(Ensemble ensemble) {
		List<Integer> leaders = IntStream.range(0, ensemble.size())
			.filter((m) -> ensemble.isRunning(m) && !ensemble.isPaused(m))
			.filter((m) -> FourLetterWords.mode(ensemble.clientPorts().get(m)).orElse("").equals("leader"))
			.boxed()
			.toList();
		return (leaders.size() == 1) ? leaders.get(0) : -1;
	}

	/** The watches running members keep on paths under the lock root, as {@code member:path}. */
	public static List<String> lockWatches(Ensemble ensemble) {
		List<String> watches = new ArrayList<>();
		for (int m = 0; m < ensemble.size(); m++) {
			if (ensemble.isRunning(m) && !ensemble.isPaused(m)) {
				int member = m;
				FourLetterWords.watchedPaths(ensemble.clientPorts().get(m))
					.stream()
					.filter((path) -> path.startsWith(LOCK_ROOT))
					.forEach((path) -> watches.add((member + 1) + ":" + path));
			}
		}
		return watches;
	}

	/** Every node under the lock root (lock nodes and their container parents), as full paths. */
	public static List<String> nodesUnderLockRoot(Ensemble ensemble) throws Exception {
		return nodesUnder(ensemble, LOCK_ROOT);
	}

	/**
	 * Every node under {@code root}, as full paths, read through a probe client of the running,
	 * unpaused members after a {@code sync}; none when {@code root} does not exist.
	 */
	public static List<String> nodesUnder(Ensemble ensemble, String root) throws Exception {
		String connectString = IntStream.range(0, ensemble.size())
			.filter((m) -> ensemble.isRunning(m) && !ensemble.isPaused(m))
			.mapToObj((m) -> "127.0.0.1:" + ensemble.clientPorts().get(m))
			.collect(Collectors.joining(","));
		ExecutorService safeService = Executors.newSingleThreadExecutor();
		CuratorFramework probe = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.sessionTimeoutMs(10_000)
			.connectionTimeoutMs(5_000)
			.retryPolicy(new RetryNTimes(5, 200))
			.runSafeService(safeService)
			.build();
		try {
			probe.start();
			if (!probe.blockUntilConnected(20, TimeUnit.SECONDS)) {
				throw new IllegalStateException("Probe could not connect to " + connectString);
			}
			// the member the probe reads from catches up with the leader first
			probe.sync().forPath("/");
			List<String> nodes = new ArrayList<>();
			collect(probe, root, nodes);
			return nodes;
		}
		finally {
			probe.close();
			safeService.shutdownNow();
		}
	}

	private static void collect(CuratorFramework probe, String path, List<String> nodes) throws Exception {
		List<String> children;
		try {
			children = probe.getChildren().forPath(path);
		}
		catch (KeeperException.NoNodeException ex) {
			return;
		}
		for (String child : children) {
			String childPath = ZKPaths.makePath(path, child);
			nodes.add(childPath);
			collect(probe, childPath, nodes);
		}
	}

}
