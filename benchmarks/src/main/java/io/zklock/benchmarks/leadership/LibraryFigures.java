package io.zklock.benchmarks.leadership;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * What scenario 15 measured for one {@link LeaderLibrary} on one kind of server: each fault's
 * outcome, in the order injected, and the notes of what could not be measured. Not thread-safe.
 */
public final class LibraryFigures {

	private final LeaderLibrary library;

	final List<StaleLeader> freezes = new ArrayList<>();

	final List<StaleLeader> cutOffs = new ArrayList<>();

	final List<Double> kills = new ArrayList<>();

	final List<Handover> firstHandovers = new ArrayList<>();

	final List<Handover> handovers = new ArrayList<>();

	final List<Suspension> drops = new ArrayList<>();

	final List<Suspension> blockedGrant = new ArrayList<>();

	final List<Suspension> blockedRevocation = new ArrayList<>();

	final List<String> notes = new ArrayList<>();

	LibraryFigures(LeaderLibrary library) {
		this.library = library;
	}

	/**
	 * The library.
	 * @return the library
	 */
	public LeaderLibrary library() {
		return this.library;
	}

	/**
	 * The leader frozen ({@code SIGSTOP}) for twice the session timeout, each run.
	 * @return the outcomes
	 */
	public List<StaleLeader> freezes() {
		return List.copyOf(this.freezes);
	}

	/**
	 * The leader cut off from every member for twice the session timeout, each run.
	 * @return the outcomes
	 */
	public List<StaleLeader> cutOffs() {
		return List.copyOf(this.cutOffs);
	}

	/**
	 * From each kill of the leader ({@code SIGKILL}) to the next leader's first accepted write, ms.
	 * @return the times
	 */
	public List<Double> kills() {
		return List.copyOf(this.kills);
	}

	/**
	 * Each process's first graceful leave, before the measured ones: code its JVM had not run yet.
	 * @return the outcomes
	 */
	public List<Handover> firstHandovers() {
		return List.copyOf(this.firstHandovers);
	}

	/**
	 * Each graceful leave of the leader after every process left once.
	 * @return the outcomes
	 */
	public List<Handover> handovers() {
		return List.copyOf(this.handovers);
	}

	/**
	 * Each dropped connection of the leader, its callbacks not blocking.
	 * @return the outcomes
	 */
	public List<Suspension> drops() {
		return List.copyOf(this.drops);
	}

	/**
	 * Each dropped connection of the leader while its grant callback blocks for 60 s.
	 * @return the outcomes
	 */
	public List<Suspension> blockedGrant() {
		return List.copyOf(this.blockedGrant);
	}

	/**
	 * Each dropped connection of the leader while its revocation callback blocks for 60 s.
	 * @return the outcomes
	 */
	public List<Suspension> blockedRevocation() {
		return List.copyOf(this.blockedRevocation);
	}

	/**
	 * What could not be measured, and why.
	 * @return one sentence each
	 */
	public List<String> notes() {
		return List.copyOf(this.notes);
	}

	/**
	 * The p-th percentile (nearest rank) of some figure.
	 * @param values the values
	 * @param figure the figure of a value
	 * @param p the percentile, 1 to 100
	 * @return the percentile, or {@code NaN} if there is no value
	 * @param <T> the kind of value
	 */
	public static <T> double percentile(List<T> values, ToDoubleFunction<T> figure, int p) {
		if (values.isEmpty()) {
			return Double.NaN;
		}
		List<Double> sorted = new ArrayList<>(values.stream().map(figure::applyAsDouble).toList());
		Collections.sort(sorted);
		int rank = (int) Math.ceil(p / 100.0 * sorted.size());
		return sorted.get(Math.max(0, rank - 1));
	}

	@Override
	public String toString() {
		return String.format(Locale.ROOT, "%s: %d freezes, %d cut-offs, %d kills, %d handovers, %d drops, %d + %d "
				+ "with a blocking callback%s", this.library.displayName(), this.freezes.size(), this.cutOffs.size(),
				this.kills.size(), this.handovers.size(), this.drops.size(), this.blockedGrant.size(),
				this.blockedRevocation.size(), this.notes.isEmpty() ? "" : "; " + String.join("; ", this.notes));
	}

	/**
	 * What a freeze or a cut-off of the leader showed.
	 * @param leader the faulted process
	 * @param successor the process that led afterwards
	 * @param staleAccepted its writes the store accepted after its successor began
	 * @param staleRefused those the store refused
	 * @param staleChecks its checks that passed after its successor began
	 * @param twoLeadersMs two running leaders: from the later of the successor's begin and the
	 * faulted leader's resume (a freeze) to its last check that passed, ms (0 if none passed)
	 * @param nextWriteMs from the fault to the first write another process had accepted, ms; -1 if
	 * none
	 */
	public record StaleLeader(String leader, String successor, int staleAccepted, int staleRefused, int staleChecks,
			double twoLeadersMs, double nextWriteMs) {
	}

	/**
	 * What a graceful leave showed.
	 * @param millis from the leave's start to the next leader's first accepted write
	 * @param twoLeadersMs the old leader's checks that passed after the successor's first one, ms
	 * (0 if none)
	 */
	public record Handover(double millis, double twoLeadersMs) {
	}

	/**
	 * What a dropped connection showed.
	 * @param stoppedMs from the suspension (the client's {@code Disconnected}, or the drop if the
	 * process printed none) to the last check the leader work passed while suspended, ms (0 if none
	 * passed)
	 * @param ranThrough whether the work passed a check while suspended and did not stop before the
	 * client reconnected (or the cap)
	 * @param capped whether neither happened within the cap
	 * @param noticedMs from the drop to the ZooKeeper client's {@code Disconnected} as the process
	 * printed it, ms; -1 if it did not within the sample
	 * @param unrecovered {@code null} if a leader wrote again and only one led within the recovery
	 * time, else what was found instead
	 */
	public record Suspension(double stoppedMs, boolean ranThrough, boolean capped, double noticedMs,
			String unrecovered) {

		/**
		 * Whether a leader wrote again and only one led within the recovery time.
		 * @return {@code true} if so
		 */
		public boolean recovered() {
			return this.unrecovered == null;
		}

	}

}
