package io.zklock.lock.internal;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.framework.api.UnhandledErrorListener;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Has the client's namespace made once, on a thread of its own, before any acquire sends a
 * request. Curator makes the namespace at a client's first request ({@code NamespaceImpl}: a
 * blocking {@code ZKPaths.mkdirs} under the retry policy), on the thread that builds that request,
 * even for a background call; an interrupt there makes Curator log {@code ERROR Ensure path threw
 * exception} with the interrupt's stack trace and try again at the next request. So the gate
 * makes the first request itself, when the engine starts on a connected client or at the first
 * connection, and acquires count the client as connected only once it is done
 * ({@link QueueClient#isConnected()}): they wait for it within their wait, as for a connection.
 * A failure for the connection's sake is tried again at the next reconnect (or in a second while
 * connected); any other failure opens the gate anyway, so that acquires fail on it loudly instead
 * of waiting. Thread-safe.
 */
final class NamespaceGate implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(NamespaceGate.class);

	private static final long RETRY_SECONDS = 1;

	/** How long {@link #close()} waits for a first request under way, in milliseconds. */
	private static final long CLOSE_WAIT_MILLIS = 2000;

	private final CuratorFramework client;

	private final SessionGuard guard;

	private final Set<Runnable> openListeners = ConcurrentHashMap.newKeySet();

	private final ScheduledThreadPoolExecutor thread;

	private final Runnable unsubscribe;

	private volatile boolean open;

	NamespaceGate(CuratorFramework client, SessionGuard guard) {
		this.client = client;
		this.guard = guard;
		String namespace = client.getNamespace();
		this.open = namespace == null || namespace.isEmpty();
		this.thread = new ScheduledThreadPoolExecutor(1, (runnable) -> {
			Thread gate = new Thread(runnable, "zklock-namespace");
			gate.setDaemon(true);
			return gate;
		});
		this.thread.setKeepAliveTime(10, TimeUnit.SECONDS);
		this.thread.allowCoreThreadTimeOut(true);
		this.thread.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
		this.unsubscribe = guard.subscribe((signal) -> {
			if (signal == ConnectionSignal.RECONNECTED) {
				schedule(0);
			}
		});
		if (guard.isConnected()) {
			schedule(0);
		}
	}

	/** Whether the namespace was made (or the client has none): acquires may send requests. */
	boolean isOpen() {
		return this.open;
	}

	/**
	 * Runs {@code listener} once, on the gate's thread, when the gate opens; never if it is open
	 * already (the caller looks at {@link #isOpen()} itself) or if the returned callback ran first.
	 * @return unsubscribes
	 */
	Runnable whenOpen(Runnable listener) {
		if (this.open) {
			return () -> {
			};
		}
		this.openListeners.add(listener);
		if (this.open && this.openListeners.remove(listener)) {
			listener.run();
		}
		return () -> this.openListeners.remove(listener);
	}

	/**
	 * Stops trying. A first request under way is not interrupted (Curator would log the
	 * interrupt as an error): it is given up to {@link #CLOSE_WAIT_MILLIS} to end, so that a client
	 * closed right after the engine (as a Spring context closes them) does not fail it half-way,
	 * which Curator logs as an error too.
	 */
	@Override
	public void close() {
		this.unsubscribe.run();
		this.thread.shutdown();
		try {
			this.thread.awaitTermination(CLOSE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void schedule(long delaySeconds) {
		if (this.open) {
			return;
		}
		try {
			this.thread.schedule(this::makeNamespace, delaySeconds, TimeUnit.SECONDS);
		}
		catch (RejectedExecutionException ex) {
			// closed
		}
	}

	private void makeNamespace() {
		// a client closed meanwhile: Curator would log its 'Client is not started' as an ERROR
		if (this.open || !this.guard.isConnected() || this.client.getState() != CuratorFrameworkState.STARTED) {
			return;
		}
		Thread self = Thread.currentThread();
		AtomicReference<Throwable> failure = new AtomicReference<>();
		UnhandledErrorListener ensureFailed = (message, error) -> {
			if (Thread.currentThread() == self) {
				failure.compareAndSet(null, error);
			}
		};
		this.client.getUnhandledErrorListenable().addListener(ensureFailed);
		try {
			// the client's first request: Curator makes the namespace here, then this exists runs
			this.client.checkExists().forPath("/");
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return;
		}
		catch (Exception ex) {
			failure.compareAndSet(null, ex);
		}
		finally {
			this.client.getUnhandledErrorListenable().removeListener(ensureFailed);
		}
		Throwable error = failure.get();
		if (error != null && isConnectionProblem(error)) {
			logger.debug("Could not make the namespace '{}' yet", this.client.getNamespace(), error);
			if (this.guard.isConnected()) {
				schedule(RETRY_SECONDS);
			}
			return;
		}
		if (error != null) {
			logger.warn("Could not make the namespace '{}': {}; locks will try again and report it",
					this.client.getNamespace(), error.toString());
		}
		this.open = true;
		for (Runnable listener : this.openListeners) {
			if (this.openListeners.remove(listener)) {
				listener.run();
			}
		}
	}

	private static boolean isConnectionProblem(Throwable error) {
		return error instanceof KeeperException keeper && LockNodeCalls.isConnectionProblem(keeper.code());
	}

}
