package io.zklock.fault.leader;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.zklock.fault.history.Event;

/**
 * One role's leadership as the history tells it: the terms (by token: who held it and when it
 * began), the leader work (each check that passed, stamped just before the check), and the fenced
 * register's decisions on the role's key. All stamps are {@link System#nanoTime()} of the
 * processes of one machine, so they compare.
 *
 * <p>
 * A term <em>begins</em> at the first of its {@code term granted} event and its first passed
 * check (a listener that blocks records its grant late). The figures of the issue:
 * <ul>
 * <li>a <em>stale</em> write is one that reached the register with a token below that of a term
 * that had begun by then: the write of a leader that lost the role;</li>
 * <li><em>two running leaders</em>: leader work of a term (a passed check) while a later term had
 * begun, measured from the later of that term's begin and the fault's end (a resumed process
 * cannot run before it resumes) to the last such check.</li>
 * </ul>
 * Immutable.
 */
public final class LeaderTimeline {

	private final String role;

	/** Token → when the term began. */
	private final TreeMap<Long, Long> begins = new TreeMap<>();

	/** Token → the process that held the term. */
	private final Map<Long, String> holders = new HashMap<>();

	private final List<Pass> passes = new ArrayList<>();

	private final List<Write> writes = new ArrayList<>();

	private LeaderTimeline(String role) {
		this.role = role;
	}

	/**
	 * Reads a role's leadership from a history.
	 * @param history the events, sorted by stamp
	 * @param role the role (the register key)
	 */
	public static LeaderTimeline of(List<Event> history, String role) {
		LeaderTimeline timeline = new LeaderTimeline(role);
		for (Event e : history) {
			if (!e.lockPath().equals(role)) {
				continue;
			}
			if (e.process().equals("register")) {
				if (e.type().equals("write")) {
					timeline.writes.add(new Write(e.nanos(), e.token(), !e.f().equals("rejected")));
				}
				continue;
			}
			if (e.is("term", "granted")) {
				timeline.begun(e.token(), e.nanos(), e.process());
			}
			else if (e.is("ok", "check")) {
				timeline.begun(e.token(), e.nanos(), e.process());
				timeline.passes.add(new Pass(e.process(), e.token(), e.nanos(), returnedAt(e)));
			}
		}
		return timeline;
	}

	/** When a passed check returned: its detail, or its stamp for a history without it. */
	private static long returnedAt(Event check) {
		try {
			return Long.parseLong(check.detail());
		}
		catch (NumberFormatException ex) {
			return check.nanos();
		}
	}

	private void begun(long token, long nanos, String process) {
		this.begins.merge(token, nanos, Math::min);
		this.holders.putIfAbsent(token, process);
	}

	public String role() {
		return this.role;
	}

	/** The process that held the term with this token, or {@code null} if no such term was seen. */
	public String holderOf(long token) {
		return this.holders.get(token);
	}

	/** Every term seen, token → holder. */
	public Map<Long, String> terms() {
		return Map.copyOf(this.holders);
	}

	/** The earliest begin of a term with a token above {@code token}, or {@link Long#MAX_VALUE}. */
	public long laterTermBegin(long token) {
		return this.begins.tailMap(token, false).values().stream().mapToLong(Long::longValue).min().orElse(Long.MAX_VALUE);
	}

	/** The stale writes that reached the register in {@code [from, to]}. */
	public StaleWrites staleWrites(long from, long to) {
		int accepted = 0;
		int refused = 0;
		for (Write write : this.writes) {
			if (write.nanos() < from || write.nanos() > to || laterTermBegin(write.token()) >= write.nanos()) {
				continue;
			}
			if (write.accepted()) {
				accepted++;
			}
			else {
				refused++;
			}
		}
		return new StaleWrites(accepted, refused);
	}

	/**
	 * Leader work that ran while a later term had begun, among the checks in {@code [from, to]}:
	 * per term, from the later of the first later term's begin and the last fault end before its
	 * first such check, to its last such check; the longest of those windows.
	 * @param faultEnds when faults ended (a process resumed, a partition healed), in any order
	 */
	public TwoLeaders twoRunningLeaders(long from, long to, Collection<Long> faultEnds) {
		Map<Long, long[]> stale = new TreeMap<>();
		for (Pass pass : this.passes) {
			if (pass.nanos() < from || pass.nanos() > to) {
				continue;
			}
			long later = laterTermBegin(pass.token());
			if (later < pass.nanos()) {
				long[] window = stale.computeIfAbsent(pass.token(), (t) -> new long[] { later, pass.nanos(), 0 });
				window[1] = pass.nanos();
				window[2]++;
			}
		}
		long longest = 0;
		int checks = 0;
		String who = "-";
		for (Map.Entry<Long, long[]> entry : stale.entrySet()) {
			long[] window = entry.getValue();
			long firstPass = this.passes.stream()
				.filter((p) -> p.token() == entry.getKey() && p.nanos() >= window[0])
				.mapToLong(Pass::nanos)
				.min()
				.orElse(window[1]);
			long start = window[0];
			for (long end : faultEnds) {
				if (end <= firstPass && end > start) {
					start = end;
				}
			}
			long length = Math.max(0, window[1] - start);
			checks += (int) window[2];
			if (length >= longest) {
				longest = length;
				who = this.holders.get(entry.getKey()) + " (token " + entry.getKey() + ")";
			}
		}
		return new TwoLeaders(checks, longest / 1_000_000.0, who);
	}

	/**
	 * The first write the register accepted after {@code from} with a token above {@code token}:
	 * the next leader's first write.
	 * @return its stamp, or -1 if none
	 */
	public long firstAcceptedWriteAbove(long token, long from) {
		return this.writes.stream()
			.filter((w) -> w.accepted() && w.token() > token && w.nanos() >= from)
			.mapToLong(Write::nanos)
			.min()
			.orElse(-1);
	}

	/** The last passed check of a term in {@code [from, to]}, or -1 if none. */
	public long lastPass(long token, long from, long to) {
		return this.passes.stream()
			.filter((p) -> p.token() == token && p.nanos() >= from && p.nanos() <= to)
			.mapToLong(Pass::nanos)
			.max()
			.orElse(-1);
	}

	/**
	 * The return of the last check of a term that began at or after {@code from} and returned at or
	 * before {@code to}, passed: the term's leader work ran within {@code [from, to]} then. A check
	 * that began before or returned after may have looked at the term outside (a loaded machine can
	 * hold a thread between a stamp and the check).
	 * @return its return's stamp, or -1 if none
	 */
	public long lastPassWithin(long token, long from, long to) {
		return this.passes.stream()
			.filter((p) -> p.token() == token && p.nanos() >= from && p.returned() <= to)
			.mapToLong(Pass::returned)
			.max()
			.orElse(-1);
	}

	/** The first passed check of a term at or after {@code from}, or -1 if none. */
	public long firstPass(long token, long from) {
		return this.passes.stream()
			.filter((p) -> p.token() == token && p.nanos() >= from)
			.mapToLong(Pass::nanos)
			.min()
			.orElse(-1);
	}

	/** The passed checks of every term, in stamp order. */
	public List<Pass> passes() {
		return List.copyOf(this.passes);
	}

	/** The register's decisions on the role's key, in stamp order. */
	public List<Write> writes() {
		return List.copyOf(this.writes);
	}

	/**
	 * A passed check before a write: the process ran as leader of the term then.
	 * @param process the process
	 * @param token the term's token
	 * @param nanos when the check began
	 * @param returned when it returned
	 */
	public record Pass(String process, long token, long nanos, long returned) {

	}

	/** A register decision on the role's key. */
	public record Write(long nanos, long token, boolean accepted) {

	}

	/** Stale writes, as the register decided them. */
	public record StaleWrites(int accepted, int refused) {

	}

	/**
	 * Leader work of a term after a later term began.
	 *
	 * @param checks how many passed checks ran so
	 * @param millis the longest window, in milliseconds (0 if none)
	 * @param who the term of that window, for messages
	 */
	public record TwoLeaders(int checks, double millis, String who) {

	}

}
