package io.zklock.leadership;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.awaitility.Awaitility;
import org.jspecify.annotations.Nullable;

/** A {@link LeadershipListener} that records every call, stamped, with the thread it ran on. */
final class RecordingLeadershipListener implements LeadershipListener {

	enum Type {

		GRANTED, REVOKED, LEADER_CHANGED

	}

	record Event(Type type, long nanos, @Nullable Term term, @Nullable RevocationReason reason,
			@Nullable Candidate leader, String thread) {

		long token() {
			return (this.term != null) ? this.term.fencingToken() : 0;
		}

	}

	private final List<Event> events = new CopyOnWriteArrayList<>();

	List<Event> events() {
		return this.events;
	}

	List<Type> types() {
		return this.events.stream().map(Event::type).toList();
	}

	List<Event> of(Type type) {
		return this.events.stream().filter((event) -> event.type() == type).toList();
	}

	/** Waits until {@code count} calls of {@code type} were recorded, and returns the last. */
	Event await(Type type, int count) {
		Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> of(type).size() >= count);
		return of(type).get(count - 1);
	}

	@Override
	public void onGranted(Term term) {
		this.events.add(new Event(Type.GRANTED, System.nanoTime(), term, null, null, Thread.currentThread().getName()));
	}

	@Override
	public void onRevoked(Term term, RevocationReason reason) {
		this.events.add(new Event(Type.REVOKED, System.nanoTime(), term, reason, null, Thread.currentThread().getName()));
	}

	@Override
	public void onLeaderChanged(String role, @Nullable Candidate leader) {
		this.events.add(new Event(Type.LEADER_CHANGED, System.nanoTime(), null, null, leader,
				Thread.currentThread().getName()));
	}

}
