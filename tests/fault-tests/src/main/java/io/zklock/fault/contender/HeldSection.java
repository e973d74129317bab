package io.zklock.fault.contender;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.zklock.lock.HoldOwner;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;

/**
 * A guarded section the test steps through by command: {@code hold} acquires (retrying failed
 * attempts while the wait lasts) and reads the register, then the section waits;
 * {@code write} writes the counter plus one with the (possibly stale) token; {@code state}
 * tells the handle's state; {@code release} releases. This is the holder of Kleppmann's
 * scenario, frozen between its read and its write while the test pauses or partitions it.
 *
 * <p>
 * In the {@code thread} shape one thread of its own, named {@code hold}, takes a thread-owned
 * hold and runs every step. In the asynchronous shapes that thread only acquires, call-owned;
 * the read and each step run one after another on the {@link SectionPools}' section threads,
 * and the release on a section thread ({@code async}) or a release thread
 * ({@code async-relay}).
 */
final class HeldSection {

	private static final String THREAD_NAME = "hold";

	private final CallShape shape;

	private final SectionPools pools;

	private final EventSink events;

	private final BlockingQueue<String> steps = new LinkedBlockingQueue<>();

	private final Thread thread;

	/**
	 * The asynchronous shapes' chain of steps, each run after the one before; it starts once
	 * the lock is acquired and read. Guarded by {@code this}.
	 */
	private CompletableFuture<?> chain = new CompletableFuture<>();

	private volatile boolean done;

	// set by the acquiring thread before the chain starts; read by the steps after it

	private LockHandle handle;

	private GuardedRound round;

	private long value;

	HeldSection(String lockPath, Duration wait, ILockByCurator lock, int registerPort, EventSink events,
			CallShape shape, SectionPools pools) {
		this.shape = shape;
		this.pools = pools;
		this.events = events;
		this.thread = new Thread(() -> {
			if (shape.isThreadOwned()) {
				runOnThread(lockPath, wait, lock, registerPort, events);
			}
			else {
				acquireForSteps(lockPath, wait, lock, registerPort, events);
			}
		}, THREAD_NAME);
		this.thread.setDaemon(true);
	}

	void start() {
		this.thread.start();
	}

	/** Hands the section its next step: {@code write}, {@code state} or {@code release}. */
	void step(String step) {
		if (this.shape.isThreadOwned()) {
			this.steps.add(step);
			return;
		}
		synchronized (this) {
			if (step.equals("release")) {
				this.chain = this.shape == CallShape.ASYNC_RELAY ? this.pools.thenOnReleaseThread(this.chain, this::release)
						: this.pools.then(this.chain, this::release);
			}
			else {
				this.chain = this.pools.then(this.chain, () -> runStep(step));
			}
		}
	}

	boolean isDone() {
		return this.shape.isThreadOwned() ? !this.thread.isAlive() : this.done;
	}

	/** Ends the section: a lock still held is released. */
	void interrupt() throws InterruptedException {
		this.thread.interrupt();
		this.thread.join(10_000);
		if (!this.shape.isThreadOwned() && !this.done) {
			step("release");
			CompletableFuture<?> last;
			synchronized (this) {
				last = this.chain;
			}
			try {
				last.get(10, TimeUnit.SECONDS);
			}
			catch (ExecutionException | TimeoutException ex) {
				// the node dies with the session, closed next
			}
		}
	}

	private void runOnThread(String lockPath, Duration wait, ILockByCurator lock, int registerPort, EventSink events) {
		try (RegisterClient register = new RegisterClient(registerPort)) {
			GuardedRound round = new GuardedRound(lock, register, events, THREAD_NAME, HoldOwner.THREAD);
			Optional<LockHandle> acquired = round.acquirePersistently(lockPath, wait);
			if (acquired.isEmpty()) {
				events.reply("held", "none");
				return;
			}
			LockHandle handle = acquired.get();
			long value = round.read(handle);
			events.reply("held", handle.fencingToken() + " " + value);
			try {
				while (true) {
					String step = this.steps.take();
					if (step.equals("write")) {
						boolean accepted = round.write(handle, value + 1);
						events.reply("wrote", accepted ? "accepted" : "rejected");
					}
					else if (step.equals("state")) {
						events.reply("state", handle.state().name());
					}
					else {
						break;
					}
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			events.reply("released", round.release(handle).name());
		}
	}

	/**
	 * The acquiring thread of the asynchronous shapes: acquires call-owned, then starts the
	 * chain of steps with the read on a section thread.
	 */
	private void acquireForSteps(String lockPath, Duration wait, ILockByCurator lock, int registerPort,
			EventSink events) {
		CompletableFuture<?> start;
		synchronized (this) {
			start = this.chain;
		}
		Optional<LockHandle> acquired;
		GuardedRound round;
		try (RegisterClient register = new RegisterClient(registerPort)) {
			round = new GuardedRound(lock, register, events, THREAD_NAME, HoldOwner.CALL);
			acquired = round.acquirePersistently(lockPath, wait);
		}
		if (acquired.isEmpty()) {
			this.done = true;
			events.reply("held", "none");
			start.completeExceptionally(new IllegalStateException("'" + lockPath + "' was not acquired"));
			return;
		}
		this.handle = acquired.get();
		this.round = round;
		this.pools.then(CompletableFuture.completedFuture(null), () -> {
			this.value = this.round.on(this.pools.register()).read(this.handle);
			events.reply("held", this.handle.fencingToken() + " " + this.value);
		}).whenComplete((ignored, error) -> start.complete(null));
	}

	private void runStep(String step) {
		if (this.handle == null) {
			return;
		}
		if (step.equals("write")) {
			boolean accepted = this.round.on(this.pools.register()).write(this.handle, this.value + 1);
			this.events.reply("wrote", accepted ? "accepted" : "rejected");
		}
		else if (step.equals("state")) {
			this.events.reply("state", this.handle.state().name());
		}
	}

	private void release() {
		if (this.handle == null || this.done) {
			return;
		}
		this.done = true;
		this.events.reply("released", this.round.release(this.handle).name());
	}

}
