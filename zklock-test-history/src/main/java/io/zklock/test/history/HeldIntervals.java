package io.zklock.test.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.zklock.test.history.LockEvent.Type;

/**
 * The holds of one lock path as intervals, and the pairs of them that conflict: the part of
 * the {@link HistoryChecker} that judges mutual exclusion.
 */
final class HeldIntervals {

	private HeldIntervals() {
	}

	/**
	 * One interval per grant: from the grant to the first of its holder's
	 * {@link Type#RELEASING}, {@link Type#LOST} or {@link Type#DIED} event (matched by holder
	 * and fencing token), {@link Type#IN_DOUBT} also ending the doubt variant.
	 * @param events the lock path's events, sorted by stamp
	 * @param grants its {@link Type#GRANTED} events
	 * @return the intervals, in the order of {@code grants}
	 */
	static List<HeldInterval> of(List<LockEvent> events, List<LockEvent> grants) {
		Map<String, List<LockEvent>> ends = new HashMap<>();
		Map<String, List<LockEvent>> deaths = new HashMap<>();
		for (LockEvent e : events) {
			switch (e.type()) {
				case RELEASING, LOST, IN_DOUBT -> ends.computeIfAbsent(holdKey(e.holder(), e.fencingToken()),
						(k) -> new ArrayList<>()).add(e);
				case DIED -> deaths.computeIfAbsent(e.holder(), (k) -> new ArrayList<>()).add(e);
				default -> {
				}
			}
		}
		List<HeldInterval> intervals = new ArrayList<>();
		for (LockEvent grant : grants) {
			long start = grant.nanos();
			long end = Long.MAX_VALUE;
			long doubtEnd = Long.MAX_VALUE;
			for (LockEvent e : ends.getOrDefault(holdKey(grant.holder(), grant.fencingToken()), List.of())) {
				if (e.nanos() < start) {
					continue;
				}
				if (e.type() != Type.IN_DOUBT) {
					end = Math.min(end, e.nanos());
				}
				doubtEnd = Math.min(doubtEnd, e.nanos());
			}
			for (LockEvent e : deaths.getOrDefault(grant.holder(), List.of())) {
				if (e.nanos() >= start) {
					end = Math.min(end, e.nanos());
					doubtEnd = Math.min(doubtEnd, e.nanos());
				}
			}
			intervals.add(new HeldInterval(grant.holder(), grant.thread(), grant.lockPath(), grant.mode(),
					grant.fencingToken(), start, end, Math.min(end, doubtEnd)));
		}
		return intervals;
	}

	private static String holdKey(String holder, long token) {
		return holder + "/" + token;
	}

	/** The pairs of conflicting holds that share a moment, the earlier-starting first. */
	static List<Overlap> overlaps(List<HeldInterval> intervals, boolean untilDoubt) {
		List<HeldInterval> sorted = new ArrayList<>(intervals);
		sorted.sort(Comparator.comparingLong(HeldInterval::start));
		List<Overlap> overlaps = new ArrayList<>();
		for (int i = 0; i < sorted.size(); i++) {
			HeldInterval first = sorted.get(i);
			for (int j = i + 1; j < sorted.size() && sorted.get(j).start() < first.endOf(untilDoubt); j++) {
				HeldInterval second = sorted.get(j);
				if (first.conflictsWith(second) && first.overlaps(second, untilDoubt)) {
					overlaps.add(new Overlap(first, second));
				}
			}
		}
		return overlaps;
	}

}
