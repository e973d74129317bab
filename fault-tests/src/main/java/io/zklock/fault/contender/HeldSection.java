package io.zklock.fault.contender;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;

/**
 * A guarded section the test steps through by command, on a thread of its own: {@code hold}
 * acquires (retrying failed attempts while the wait lasts) and reads the register, then the
 * section waits; {@code write} writes the counter
 * plus one with the (possibly stale) token; {@code release} releases. This is the holder of
 * Kleppmann's scenario, frozen between its read and its write while the test pauses or
 * partitions it.
 */
final class HeldSection {

	private final BlockingQueue<String> steps = new LinkedBlockingQueue<>();

	private final Thread thread;

	HeldSection(String lockPath, Duration wait, ILockByCurator lock, int registerPort, EventSink events) {
		this.thread = new Thread(() -> run(lockPath, wait, lock, registerPort, events), "hold");
		this.thread.setDaemon(true);
	}

	void start() {
		this.thread.start();
	}

	/** Hands the section its next step: {@code write} or {@code release}. */
	void step(String step) {
		this.steps.add(step);
	}

	boolean isDone() {
		return !this.thread.isAlive();
	}

	void interrupt() throws InterruptedException {
		this.thread.interrupt();
		this.thread.join(10_000);
	}

	private void run(String lockPath, Duration wait, ILockByCurator lock, int registerPort, EventSink events) {
		try (RegisterClient register = new RegisterClient(registerPort)) {
			GuardedRound round = new GuardedRound(lock, register, events, "hold");
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

}
