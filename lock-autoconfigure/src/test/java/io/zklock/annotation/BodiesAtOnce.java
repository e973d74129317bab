package io.zklock.annotation;

import java.util.concurrent.atomic.AtomicInteger;

/** Counts the bodies that run at once under one lock, and the most ever seen. Thread-safe. */
final class BodiesAtOnce {

	private final AtomicInteger running = new AtomicInteger();

	private final AtomicInteger max = new AtomicInteger();

	private final AtomicInteger entered = new AtomicInteger();

	void enter() {
		this.entered.incrementAndGet();
		int now = this.running.incrementAndGet();
		this.max.accumulateAndGet(now, Math::max);
	}

	void exit() {
		this.running.decrementAndGet();
	}

	int max() {
		return this.max.get();
	}

	int entered() {
		return this.entered.get();
	}

}
