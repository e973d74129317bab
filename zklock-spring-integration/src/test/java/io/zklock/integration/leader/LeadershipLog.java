package io.zklock.integration.leader;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Who believed it led, when: each instance's grants and revocations as the test JVM saw them
 * ({@link System#nanoTime()} on receipt). Thread-safe.
 */
final class LeadershipLog {

	record Event(long at, String instance, boolean granted, long token) {
	}

	private final List<Event> events = new ArrayList<>();

	synchronized void granted(String instance, long token) {
		this.events.add(new Event(System.nanoTime(), instance, true, token));
	}

	synchronized void revoked(String instance) {
		this.events.add(new Event(System.nanoTime(), instance, false, 0));
	}

	/** The instances that believe they lead now. */
	synchronized List<String> leaders() {
		Map<String, Boolean> leading = new HashMap<>();
		for (Event event : this.events) {
			leading.put(event.instance(), event.granted());
		}
		return leading.entrySet().stream().filter(Map.Entry::getValue).map(Map.Entry::getKey).sorted().toList();
	}

	/** The last grant to an instance other than {@code instance} after {@code since}. */
	synchronized Optional<Event> grantToOtherSince(String instance, long since) {
		return this.events.stream()
			.filter((event) -> event.granted() && event.at() >= since && !event.instance().equals(instance))
			.findFirst();
	}

	/** The first revocation of {@code instance} after {@code since}. */
	synchronized Optional<Event> revocationSince(String instance, long since) {
		return this.events.stream()
			.filter((event) -> !event.granted() && event.at() >= since && event.instance().equals(instance))
			.findFirst();
	}

	/** How long, between {@code from} and {@code to}, two or more instances believed they led. */
	synchronized Duration coexistence(long from, long to) {
		Map<String, Boolean> leading = new HashMap<>();
		long total = 0;
		long last = from;
		for (Event event : this.events) {
			long at = Math.min(Math.max(event.at(), from), to);
			if (count(leading) >= 2) {
				total += at - last;
			}
			last = at;
			leading.put(event.instance(), event.granted());
		}
		if (count(leading) >= 2) {
			total += to - last;
		}
		return Duration.ofNanos(total);
	}

	private static long count(Map<String, Boolean> leading) {
		return leading.values().stream().filter(Boolean::booleanValue).count();
	}

	synchronized String describe(long origin) {
		StringBuilder text = new StringBuilder();
		for (Event event : this.events) {
			text.append(String.format("  %+7d ms %s %s%s%n", (event.at() - origin) / 1_000_000, event.instance(),
					event.granted() ? "GRANTED" : "REVOKED", event.granted() ? " token " + event.token() : ""));
		}
		return text.toString();
	}

}
