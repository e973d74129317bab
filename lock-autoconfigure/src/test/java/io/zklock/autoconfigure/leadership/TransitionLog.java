package io.zklock.autoconfigure.leadership;

import java.util.ArrayList;
import java.util.List;

/**
 * What happened, in order, across the instances of a test: lifecycle starts and stops, events and
 * checks, as lines such as {@code "a: start consumer"}. Thread-safe.
 */
final class TransitionLog {

	private final List<String> entries = new ArrayList<>();

	synchronized void add(String entry) {
		this.entries.add(entry);
	}

	synchronized List<String> entries() {
		return List.copyOf(this.entries);
	}

	synchronized int indexOf(String entry) {
		return this.entries.indexOf(entry);
	}

	@Override
	public synchronized String toString() {
		return this.entries.toString();
	}

}
