package io.zklock.autoconfigure.leadership;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.springframework.context.SmartLifecycle;

/**
 * A leader-scoped lifecycle bean for tests: records its starts and stops in a {@link TransitionLog}
 * as {@code "<instance>: start <name>"} and {@code "<instance>: stop <name>"}; its stop may take a
 * while, simulating a listener container that finishes the message in hand.
 */
class RecordingLifecycle implements SmartLifecycle {

	private final TransitionLog log;

	private final String instance;

	private final String name;

	private final int phase;

	private final Duration stopTakes;

	private volatile boolean running;

	private final CountDownLatch stopped = new CountDownLatch(1);

	RecordingLifecycle(TransitionLog log, String instance, String name, int phase) {
		this(log, instance, name, phase, Duration.ZERO);
	}

	RecordingLifecycle(TransitionLog log, String instance, String name, int phase, Duration stopTakes) {
		this.log = log;
		this.instance = instance;
		this.name = name;
		this.phase = phase;
		this.stopTakes = stopTakes;
	}

	@Override
	public void start() {
		this.running = true;
		this.log.add(this.instance + ": start " + this.name);
	}

	@Override
	public void stop() {
		if (!this.stopTakes.isZero()) {
			try {
				// simulated work that finishes before the bean stops
				Thread.sleep(this.stopTakes.toMillis());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		this.running = false;
		this.log.add(this.instance + ": stop " + this.name);
		this.stopped.countDown();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public boolean isAutoStartup() {
		return false;
	}

	@Override
	public int getPhase() {
		return this.phase;
	}

	boolean awaitStopped(Duration timeout) throws InterruptedException {
		return this.stopped.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
	}

}
