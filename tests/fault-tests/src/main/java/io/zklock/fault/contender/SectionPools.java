package io.zklock.fault.contender;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import io.zklock.lock.LockHandle;

/**
 * The executors of a contender's asynchronous call shapes, shared by all its workers as an
 * application shares its pools: guarded sections run on {@code section-N} threads, relayed
 * releases on {@code release-N} threads. A pool thread is reused by every worker's sections, so
 * one thread runs under many calls' holds in turn. Each section thread has its own connection to
 * the fenced register ({@link RegisterClient} is not thread-safe).
 *
 * <p>
 * Thread-safe.
 */
final class SectionPools implements AutoCloseable {

	private static final int SECTION_THREADS = 4;

	private static final int RELEASE_THREADS = 2;

	private final int registerPort;

	private final ExecutorService sections = Executors.newFixedThreadPool(SECTION_THREADS, daemons("section"));

	private final ExecutorService releases = Executors.newFixedThreadPool(RELEASE_THREADS, daemons("release"));

	private final List<RegisterClient> registers = new ArrayList<>();

	private final ThreadLocal<RegisterClient> register = ThreadLocal.withInitial(this::openRegister);

	SectionPools(int registerPort) {
		this.registerPort = registerPort;
	}

	/**
	 * Runs a guarded section of a call-owned hold the way {@code shape} says, off the calling
	 * thread: {@code body} on a section thread, then the release on that same thread
	 * ({@link CallShape#ASYNC}) or on a release thread ({@link CallShape#ASYNC_RELAY}), also when
	 * the body throws.
	 * @param round the round that acquired {@code handle} (its worker name goes on every event)
	 * @param body the section; it gets the round bound to the section thread's register
	 * @return completes with the body's result once the lock is released
	 * @throws IllegalArgumentException for {@link CallShape#THREAD}, which has no asynchronous
	 * section
	 */
	<T> CompletableFuture<T> runSection(CallShape shape, GuardedRound round, LockHandle handle,
			Function<GuardedRound, T> body) {
		return runSection(shape, round, List.of(handle), body);
	}

	/**
	 * Runs a guarded section under several call-owned holds, as {@link #runSection(CallShape,
	 * GuardedRound, LockHandle, Function)} does under one; they are released in the reverse order
	 * of {@code handles}.
	 */
	<T> CompletableFuture<T> runSection(CallShape shape, GuardedRound round, List<LockHandle> handles,
			Function<GuardedRound, T> body) {
		return switch (shape) {
			case ASYNC -> CompletableFuture.supplyAsync(() -> {
				GuardedRound here = round.on(this.register.get());
				try {
					return body.apply(here);
				}
				finally {
					here.releaseAll(handles);
				}
			}, this.sections);
			case ASYNC_RELAY -> CompletableFuture.supplyAsync(() -> body.apply(round.on(this.register.get())), this.sections)
				.whenCompleteAsync((value, error) -> round.releaseAll(handles), this.releases);
			case THREAD -> throw new IllegalArgumentException("The call shape 'thread' runs its section on the "
					+ "acquiring thread; use 'async' or 'async-relay'");
		};
	}

	/** Runs one step of a held section on a section thread, after {@code previous}. */
	CompletableFuture<Void> then(CompletableFuture<?> previous, Runnable step) {
		return previous.handleAsync((value, error) -> run(step), this.sections);
	}

	/** Runs one step of a held section on a release thread, after {@code previous}. */
	CompletableFuture<Void> thenOnReleaseThread(CompletableFuture<?> previous, Runnable step) {
		return previous.handleAsync((value, error) -> run(step), this.releases);
	}

	private static Void run(Runnable step) {
		step.run();
		return null;
	}

	/** The calling section thread's own register connection. */
	RegisterClient register() {
		return this.register.get();
	}

	@Override
	public void close() throws InterruptedException {
		this.sections.shutdown();
		this.releases.shutdown();
		this.sections.awaitTermination(10, TimeUnit.SECONDS);
		this.releases.awaitTermination(10, TimeUnit.SECONDS);
		synchronized (this.registers) {
			this.registers.forEach(RegisterClient::close);
			this.registers.clear();
		}
	}

	private RegisterClient openRegister() {
		RegisterClient client = new RegisterClient(this.registerPort);
		synchronized (this.registers) {
			this.registers.add(client);
		}
		return client;
	}

	private static ThreadFactory daemons(String prefix) {
		AtomicInteger count = new AtomicInteger();
		return (runnable) -> {
			Thread thread = new Thread(runnable, prefix + "-" + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

}
