package io.zklock.autoconfigure;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.springframework.beans.factory.DisposableBean;

/**
 * Owns the single thread that runs Curator's "safe" notifications ({@code runSafe},
 * {@code postSafeNotify}) for zklock's client. Curator 5.9.0 never shuts down the one it
 * creates itself when the client closes (GH-1277), so a restarted context would leak a
 * thread; this bean is destroyed after the client and stops its thread.
 */
final class CuratorSafeNotifyExecutor implements DisposableBean {

	private final ExecutorService executor = Executors.newSingleThreadExecutor((runnable) -> {
		Thread thread = new Thread(runnable, "zklock-curator-safe-notify");
		thread.setDaemon(true);
		return thread;
	});

	ExecutorService getExecutor() {
		return this.executor;
	}

	@Override
	public void destroy() throws InterruptedException {
		this.executor.shutdownNow();
		this.executor.awaitTermination(5, TimeUnit.SECONDS);
	}

}
