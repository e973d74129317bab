package io.zklock.test;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;

import io.zklock.lock.LockEngine;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockRequest;
import org.jspecify.annotations.Nullable;

/**
 * A lock held by another ZooKeeper session than the application's, made by
 * {@link TestZooKeeper#holdElsewhere(String)}: to the application it looks like a lock held
 * by another instance. Its lock node names application {@code zklock-test}, instance {@code busy}
 * as its holder ({@code zklock host=… pid=… app=zklock-test instance=busy}). Closing it
 * releases the lock and ends the session; closing twice does nothing. Thread-safe.
 */
public final class BusyLock implements AutoCloseable {

	private final ExecutorService safeNotify;

	private final CuratorFramework client;

	private final LockEngine engine;

	private final LockHandle handle;

	private final AtomicBoolean closed = new AtomicBoolean();

	private BusyLock(ExecutorService safeNotify, CuratorFramework client, LockEngine engine,
			LockHandle handle) {
		this.safeNotify = safeNotify;
		this.client = client;
		this.engine = engine;
		this.handle = handle;
	}

	static BusyLock hold(String connectString, String namespace, String rootPath, String lockPath, LockMode mode,
			Duration wait) {
		ExecutorService safeNotify = Executors.newSingleThreadExecutor((runnable) -> {
			Thread thread = new Thread(runnable, "zklock-test-busy-safe-notify");
			thread.setDaemon(true);
			return thread;
		});
		// Curator 5.9 never stops the safe-notify thread it makes itself: give it one to stop
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.namespace(namespace)
			.retryPolicy(new RetryOneTime(100))
			.connectionTimeoutMs((int) wait.toMillis())
			.runSafeService(safeNotify)
			.build();
		LockEngine engine = null;
		try {
			client.start();
			if (!client.blockUntilConnected((int) wait.toMillis(), TimeUnit.MILLISECONDS)) {
				throw new IllegalStateException("Could not hold lock path '" + lockPath + "' elsewhere: ZooKeeper at "
						+ connectString + " did not answer within " + wait.toSeconds() + " s");
			}
			engine = LockEngine.builder(client).rootPath(rootPath).holder("zklock-test", "busy").build();
			Optional<LockHandle> handle = engine.acquire(LockRequest.of(lockPath, mode).waitAtMost(wait));
			if (handle.isEmpty()) {
				throw new IllegalStateException("Could not hold lock path '" + lockPath + "' (" + mode
						+ ") elsewhere within " + wait.toSeconds() + " s: the test itself holds it, or another "
						+ "busy lock does; release those first");
			}
			return new BusyLock(safeNotify, client, engine, handle.get());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			close(safeNotify, client, engine);
			throw new IllegalStateException("Interrupted while holding lock path '" + lockPath + "' elsewhere", ex);
		}
		catch (RuntimeException ex) {
			close(safeNotify, client, engine);
			throw ex;
		}
	}

	/**
	 * The lock path held, relative to the lock root.
	 * @return the lock path, such as {@code "orders/42"}
	 */
	public String lockPath() {
		return this.handle.lockPath();
	}

	/**
	 * The mode it is held in.
	 * @return the mode
	 */
	public LockMode mode() {
		return this.handle.mode();
	}

	/**
	 * The fencing token of the busy lock's node; any later holder gets a larger one.
	 * @return the fencing token
	 */
	public long fencingToken() {
		return this.handle.fencingToken();
	}

	/**
	 * Whether the lock is still held: {@code false} once closed.
	 * @return whether the lock is held
	 */
	public boolean isHeld() {
		return this.handle.isHeld();
	}

	/**
	 * Releases the lock, so a waiting application call gets it, and ends the other session.
	 */
	@Override
	public void close() {
		if (!this.closed.compareAndSet(false, true)) {
			return;
		}
		try {
			this.handle.release();
		}
		finally {
			close(this.safeNotify, this.client, this.engine);
		}
	}

	private static void close(ExecutorService safeNotify, CuratorFramework client, @Nullable LockEngine engine) {
		try {
			if (engine != null) {
				engine.close();
			}
			client.close();
		}
		finally {
			safeNotify.shutdownNow();
			try {
				safeNotify.awaitTermination(5, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	@Override
	public String toString() {
		return "BusyLock[" + this.handle.mode() + " '" + this.handle.lockPath() + "', token "
				+ this.handle.fencingToken() + "]";
	}

}
