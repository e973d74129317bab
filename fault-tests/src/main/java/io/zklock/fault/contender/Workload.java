package io.zklock.fault.contender;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;

/**
 * Worker threads that repeat guarded read–work–write rounds on one lock path: the load of
 * the {@code run} command. Every {@code reentrantEvery}-th round of a thread also re-enters
 * the lock it holds (same node, same fencing token). A failed or timed-out acquire is recorded
 * and retried after a short back-off; it does not count as a round.
 */
final class Workload {

	/** What one {@code run} command asked for. */
	record Spec(String lockPath, int threads, int rounds, int sectionMinMs, int sectionMaxMs, int reentrantEvery,
			Duration lockWait) {
	}

	private final Spec spec;

	private final ILockByCurator lock;

	private final int registerPort;

	private final EventSink events;

	private final AtomicInteger claimed = new AtomicInteger();

	private final AtomicInteger completed = new AtomicInteger();

	private final List<Thread> threads = new ArrayList<>();

	private volatile boolean stopping;

	private volatile AtomicInteger running;

	Workload(Spec spec, ILockByCurator lock, int registerPort, EventSink events) {
		this.spec = spec;
		this.lock = lock;
		this.registerPort = registerPort;
		this.events = events;
	}

	/**
	 * Starts the threads; {@code whenDone} runs once all of them have finished their rounds
	 * (not when they were stopped).
	 */
	void start(Runnable whenDone) {
		AtomicInteger running = new AtomicInteger(this.spec.threads());
		this.running = running;
		for (int i = 0; i < this.spec.threads(); i++) {
			String name = "w" + i;
			Thread thread = new Thread(() -> {
				try {
					loop(name);
				}
				finally {
					if (running.decrementAndGet() == 0 && !this.stopping) {
						whenDone.run();
					}
				}
			}, name);
			thread.setDaemon(true);
			this.threads.add(thread);
		}
		this.threads.forEach(Thread::start);
	}

	/**
	 * Lets every thread finish its round, then stops; interrupts threads still busy after
	 * {@code grace}.
	 * @return the rounds completed
	 */
	int stop(Duration grace) throws InterruptedException {
		this.stopping = true;
		long deadline = System.nanoTime() + grace.toNanos();
		for (Thread thread : this.threads) {
			thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
		}
		for (Thread thread : this.threads) {
			thread.interrupt();
		}
		for (Thread thread : this.threads) {
			thread.join(10_000);
		}
		return this.completed.get();
	}

	boolean isRunning() {
		return this.running != null && this.running.get() > 0;
	}

	int completed() {
		return this.completed.get();
	}

	private void loop(String thread) {
		try (RegisterClient register = new RegisterClient(this.registerPort)) {
			GuardedRound round = new GuardedRound(this.lock, register, this.events, thread);
			int myRounds = 0;
			while (!this.stopping && !Thread.currentThread().isInterrupted()) {
				if (this.spec.rounds() >= 0 && this.claimed.incrementAndGet() > this.spec.rounds()) {
					return;
				}
				boolean reentrant = this.spec.reentrantEvery() > 0 && (myRounds + 1) % this.spec.reentrantEvery() == 0;
				if (runOnce(round, reentrant)) {
					myRounds++;
					this.completed.incrementAndGet();
				}
				else {
					if (this.spec.rounds() >= 0) {
						this.claimed.decrementAndGet();
					}
					backOff();
				}
			}
		}
	}

	private boolean runOnce(GuardedRound round, boolean reentrant) {
		Optional<LockHandle> acquired = round.acquire(this.spec.lockPath(), this.spec.lockWait(), false);
		if (acquired.isEmpty()) {
			return false;
		}
		LockHandle handle = acquired.get();
		Optional<LockHandle> inner = reentrant ? round.acquire(this.spec.lockPath(), Duration.ZERO, true)
				: Optional.empty();
		try {
			long value = round.read(handle);
			work();
			if (value >= 0) {
				round.write(handle, value + 1);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			inner.ifPresent((reentered) -> round.release(reentered, true));
			round.release(handle);
		}
		return true;
	}

	/** The simulated work inside the section (not a synchronisation). */
	private void work() throws InterruptedException {
		int min = this.spec.sectionMinMs();
		int max = this.spec.sectionMaxMs();
		int millis = (max > min) ? ThreadLocalRandom.current().nextInt(min, max + 1) : min;
		if (millis > 0) {
			Thread.sleep(millis);
		}
	}

	private void backOff() {
		try {
			Thread.sleep(100);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
