package io.zklock.fault.contender;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import io.zklock.lock.HoldOwner;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;

/**
 * Worker threads that repeat guarded read–work–write rounds on one lock path or several: the
 * load of the {@code run} command, in one of the {@link CallShape}s. With several lock paths,
 * worker {@code w<i>} takes the lock paths from the ({@code i} mod their number)-th on: with
 * {@code soak/a,soak/b}, {@code w0} takes {@code soak/a} then {@code soak/b}, {@code w1} takes
 * {@code soak/b} alone, so each lock path has waiters of its own. A round takes its locks in the
 * order given (so no two rounds wait for each other in a cycle) and holds them all while it reads,
 * works and writes the register's counter of each (its key is the lock path, its token that
 * lock's); it releases them in the reverse order. A contender that dies or whose session ends then
 * has lock nodes on several lock paths, all deleted at one zxid, which may unblock waiters on each.
 * With {@code giveUpEvery} above 0, every so many attempts of a worker wait at most
 * {@value #IMPATIENT_WAIT_MS} ms for each lock: they mostly give up, in ZooKeeper's queue or in a
 * local handoff chain.
 * <ul>
 * <li>{@code thread}: each round is a thread-owned hold taken, used and released by the worker;
 * every {@code reentrantEvery}-th round of a worker also re-enters the lock it took first (same
 * node, same fencing token).</li>
 * <li>{@code async}, {@code async-relay}: the worker takes a call-owned hold and hands the
 * section to the {@link SectionPools}, where it runs and releases; the worker goes straight on
 * to its next acquire, which queues behind its own previous call's lock node until that call
 * releases. Nothing is re-entered ({@code reentrantEvery} must be 0).</li>
 * </ul>
 * A failed or timed-out acquire is recorded and retried after a short back-off; it does not
 * count as a round.
 */
final class Workload {

	/** What one {@code run} command asked for. */
	record Spec(List<String> lockPaths, int threads, int rounds, int sectionMinMs, int sectionMaxMs,
			int reentrantEvery, Duration lockWait, CallShape shape, int giveUpEvery) {

		Spec {
			lockPaths = List.copyOf(lockPaths);
			if (!shape.isThreadOwned() && reentrantEvery != 0) {
				throw new IllegalArgumentException("Call shape '" + shape + "' takes call-owned holds, which are "
						+ "never reentrant: use reentrant-every 0 (got " + reentrantEvery + ")");
			}
		}

	}

	/** How long an impatient attempt waits for each lock. */
	static final int IMPATIENT_WAIT_MS = 5;

	private final Spec spec;

	private final ILockByCurator lock;

	private final int registerPort;

	private final EventSink events;

	private final SectionPools pools;

	/** Sections handed to the pools and not yet released. */
	private final Set<CompletableFuture<?>> inFlight = ConcurrentHashMap.newKeySet();

	private final AtomicInteger claimed = new AtomicInteger();

	private final AtomicInteger completed = new AtomicInteger();

	private final List<Thread> threads = new ArrayList<>();

	private volatile boolean stopping;

	private volatile AtomicInteger running;

	/**
	 * @param pools where the sections of the asynchronous shapes run; unused for
	 * {@code thread}
	 */
	Workload(Spec spec, ILockByCurator lock, int registerPort, EventSink events, SectionPools pools) {
		this.spec = spec;
		this.lock = lock;
		this.registerPort = registerPort;
		this.events = events;
		this.pools = pools;
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
			List<String> paths = this.spec.lockPaths();
			List<String> mine = paths.subList(i % paths.size(), paths.size());
			Thread thread = new Thread(() -> {
				try {
					loop(name, mine);
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
	 * {@code grace}; waits for the sections still running on the pools.
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
		for (CompletableFuture<?> section : this.inFlight) {
			awaitQuietly(section, Duration.ofSeconds(10));
		}
		return this.completed.get();
	}

	boolean isRunning() {
		return this.running != null && this.running.get() > 0;
	}

	int completed() {
		return this.completed.get();
	}

	private void loop(String thread, List<String> lockPaths) {
		HoldOwner owner = this.spec.shape().isThreadOwned() ? HoldOwner.THREAD : HoldOwner.CALL;
		CompletableFuture<?> last = CompletableFuture.completedFuture(null);
		try (RegisterClient register = new RegisterClient(this.registerPort)) {
			GuardedRound round = new GuardedRound(this.lock, register, this.events, thread, owner);
			int myRounds = 0;
			int attempts = 0;
			while (!this.stopping && !Thread.currentThread().isInterrupted()) {
				if (this.spec.rounds() >= 0 && this.claimed.incrementAndGet() > this.spec.rounds()) {
					return;
				}
				boolean reentrant = this.spec.reentrantEvery() > 0 && (myRounds + 1) % this.spec.reentrantEvery() == 0;
				attempts++;
				Duration wait = (this.spec.giveUpEvery() > 0 && attempts % this.spec.giveUpEvery() == 0)
						? Duration.ofMillis(IMPATIENT_WAIT_MS) : this.spec.lockWait();
				CompletableFuture<?> section = this.spec.shape().isThreadOwned()
						? runOnce(round, lockPaths, wait, reentrant) : handOff(round, lockPaths, wait);
				if (section != null) {
					myRounds++;
					last = section;
				}
				else {
					if (this.spec.rounds() >= 0) {
						this.claimed.decrementAndGet();
					}
					backOff();
				}
			}
		}
		finally {
			// the worker's rounds are done once its last section has released
			awaitQuietly(last, Duration.ofSeconds(30));
		}
	}

	/**
	 * One round on the worker's thread.
	 * @return a completed future once the round is done, {@code null} if the lock was not
	 * acquired
	 */
	private CompletableFuture<?> runOnce(GuardedRound round, List<String> lockPaths, Duration wait,
			boolean reentrant) {
		List<LockHandle> handles = acquireAll(round, lockPaths, wait);
		if (handles == null) {
			return null;
		}
		Optional<LockHandle> inner = reentrant ? round.acquire(lockPaths.get(0), Duration.ZERO, true) : Optional.empty();
		try {
			readWorkWrite(round, handles);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			inner.ifPresent((reentered) -> round.release(reentered, true));
			round.releaseAll(handles);
		}
		this.completed.incrementAndGet();
		return CompletableFuture.completedFuture(null);
	}

	/**
	 * Takes the round's locks in order, on the worker's thread.
	 * @return the handles, in the order taken; {@code null} if one was not acquired (those taken
	 * before it are released)
	 */
	private static List<LockHandle> acquireAll(GuardedRound round, List<String> lockPaths, Duration wait) {
		List<LockHandle> handles = new ArrayList<>();
		for (String lockPath : lockPaths) {
			Optional<LockHandle> acquired = round.acquire(lockPath, wait, false);
			if (acquired.isEmpty()) {
				round.releaseAll(handles);
				return null;
			}
			handles.add(acquired.get());
		}
		return handles;
	}

	/** Reads every lock's counter, works, and writes each counter plus one with its lock's token. */
	private void readWorkWrite(GuardedRound round, List<LockHandle> handles) throws InterruptedException {
		long[] values = new long[handles.size()];
		for (int i = 0; i < handles.size(); i++) {
			values[i] = round.read(handles.get(i));
		}
		work();
		for (int i = 0; i < handles.size(); i++) {
			if (values[i] >= 0) {
				round.write(handles.get(i), values[i] + 1);
			}
		}
	}

	/**
	 * Acquires call-owned on the worker's thread and hands the section to the pools, without
	 * waiting for it.
	 * @return the section, done once released; {@code null} if the lock was not acquired
	 */
	private CompletableFuture<?> handOff(GuardedRound round, List<String> lockPaths, Duration wait) {
		List<LockHandle> handles = acquireAll(round, lockPaths, wait);
		if (handles == null) {
			return null;
		}
		CompletableFuture<?> section = this.pools.runSection(this.spec.shape(), round, handles, (here) -> {
			try {
				readWorkWrite(here, handles);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return null;
		}).whenComplete((value, error) -> {
			if (error != null) {
				System.err.println("[" + Thread.currentThread().getName() + "] section failed: " + error);
			}
			this.completed.incrementAndGet();
		});
		this.inFlight.add(section);
		section.whenComplete((value, error) -> this.inFlight.remove(section));
		return section;
	}

	private static void awaitQuietly(CompletableFuture<?> section, Duration patience) {
		try {
			section.get(patience.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException ex) {
			// recorded by the section itself
		}
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
