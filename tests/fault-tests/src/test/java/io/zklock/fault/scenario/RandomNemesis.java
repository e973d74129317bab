package io.zklock.fault.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.zklock.fault.ensemble.Ensemble;
import io.zklock.fault.ensemble.EnsembleProbe;
import io.zklock.fault.harness.ContenderProcess;
import io.zklock.fault.harness.FaultLab;
import io.zklock.fault.history.Event;
import io.zklock.fault.history.EventStream;

import static org.awaitility.Awaitility.await;

/**
 * A seeded random nemesis, one fault at a time: it kills, pauses or partitions a contender
 * (every other time the one holding the lock at that moment), crashes a member or the leader,
 * or pauses a member, keeps the fault for a random while, heals it, and rests before the next
 * one. Every step draws the same random numbers whatever the fault, so a seed always yields the
 * same schedule of kinds, targets and durations.
 */
public final class RandomNemesis {

	/** Figures and outcomes for the reader of the run (logger io.zklock.fault.report, INFO). */
	private static final Logger REPORT = LoggerFactory.getLogger("io.zklock.fault.report");

	/** The faults the nemesis mixes. */
	public enum Kind {

		KILL_CONTENDER("kill -9 contender"), PAUSE_CONTENDER("SIGSTOP contender"),
		PARTITION_CONTENDER("partition contender"), CRASH_MEMBER("crash member"), CRASH_LEADER("crash leader"),
		PAUSE_MEMBER("SIGSTOP member");

		private final String label;

		Kind(String label) {
			this.label = label;
		}

		public String label() {
			return this.label;
		}

	}

	/**
	 * One injected fault.
	 *
	 * @param kind what
	 * @param target the contender or member hit
	 * @param at when it was injected
	 * @param heldMillis how long it lasted
	 */
	public record Fault(Kind kind, String target, Event at, long heldMillis) {

		/** The contender the fault hit, or {@code null} for a member fault. */
		public String contender() {
			return this.target.startsWith("c") ? this.target : null;
		}

	}

	private final FaultLab lab;

	private final String lockPath;

	private final Random random;

	private final Duration session;

	private final int slots;

	private final Runnable onReplacement;

	private final List<Fault> faults = new ArrayList<>();

	private final List<String> schedule = new ArrayList<>();

	/**
	 * @param lab the lab whose contenders and ensemble get the faults
	 * @param lockPath the lock the contenders compete for (to find its holder)
	 * @param seed the seed of the schedule
	 * @param slots the number of contender slots ({@code c1…cN}; a killed one is replaced)
	 * @param onReplacement called with the lab after a killed contender was replaced, to start its
	 * work (it gets the newest contender with {@link FaultLab#live()})
	 */
	public RandomNemesis(FaultLab lab, String lockPath, long seed, int slots, Runnable onReplacement) {
		this.lab = lab;
		this.lockPath = lockPath;
		this.random = new Random(seed);
		this.session = lab.sessionTimeout();
		this.slots = slots;
		this.onReplacement = onReplacement;
	}

	/** Injects faults, one after another, until {@code duration} has passed. */
	public void runFor(Duration duration) throws Exception {
		long start = System.nanoTime();
		while (System.nanoTime() - start < duration.toNanos()) {
			Kind kind = Kind.values()[this.random.nextInt(Kind.values().length)];
			int target = this.random.nextInt(1000);
			double hold = this.random.nextDouble();
			double rest = this.random.nextDouble();
			String line = String.format("t+%5.1fs %-20s", (System.nanoTime() - start) / 1e9, kind.label());
			Fault fault = inject(kind, target, hold);
			line += " " + fault.target() + " for " + fault.heldMillis() + " ms";
			this.schedule.add(line);
			REPORT.info("[soak] " + line);
			this.faults.add(fault);
			Duration pause = Duration.ofMillis(1000 + (long) (rest * 2000));
			await().pollDelay(pause).atMost(pause.plusSeconds(5)).until(() -> true);
		}
	}

	public List<Fault> faults() {
		return this.faults;
	}

	public List<String> schedule() {
		return this.schedule;
	}

	private Fault inject(Kind kind, int target, double hold) throws Exception {
		Ensemble ensemble = this.lab.ensemble();
		return switch (kind) {
			case KILL_CONTENDER -> {
				ContenderProcess victim = holderOrSlot(target);
				Event at = victim.kill();
				this.lab.replace(victim);
				this.onReplacement.run();
				yield new Fault(kind, victim.id(), at, 0);
			}
			case PAUSE_CONTENDER -> {
				ContenderProcess victim = holderOrSlot(target);
				long held = between(this.session.dividedBy(2), this.session.multipliedBy(2), hold);
				Event at = this.lab.history().nemesis(kind.label(), victim.id());
				victim.pause();
				hold(held);
				this.lab.history().nemesis("heal", victim.id());
				victim.resume();
				yield new Fault(kind, victim.id(), at, held);
			}
			case PARTITION_CONTENDER -> {
				ContenderProcess victim = holderOrSlot(target);
				long held = between(this.session.dividedBy(2), this.session.multipliedBy(2), hold);
				Event at = this.lab.history().nemesis(kind.label(), victim.id());
				this.lab.proxyOf(victim).blackHole();
				hold(held);
				this.lab.history().nemesis("heal", victim.id());
				this.lab.proxyOf(victim).heal();
				yield new Fault(kind, victim.id(), at, held);
			}
			case CRASH_MEMBER, CRASH_LEADER -> {
				int member = (kind == Kind.CRASH_LEADER) ? EnsembleProbe.awaitLeader(ensemble) : target % ensemble.size();
				long held = between(this.session, this.session.multipliedBy(3), hold);
				Event at = this.lab.history().nemesis(kind.label(), "server-" + (member + 1));
				ensemble.kill(member);
				hold(held);
				this.lab.history().nemesis("heal", "server-" + (member + 1));
				ensemble.restart(member);
				EnsembleProbe.awaitLeader(ensemble);
				yield new Fault(kind, "server-" + (member + 1), at, held);
			}
			case PAUSE_MEMBER -> {
				int member = target % ensemble.size();
				long held = between(this.session.dividedBy(2), this.session.multipliedBy(2), hold);
				Event at = this.lab.history().nemesis(kind.label(), "server-" + (member + 1));
				ensemble.pause(member);
				hold(held);
				this.lab.history().nemesis("heal", "server-" + (member + 1));
				ensemble.resume(member);
				EnsembleProbe.awaitLeader(ensemble);
				yield new Fault(kind, "server-" + (member + 1), at, held);
			}
		};
	}

	/**
	 * For an even roll, the contender that is granted the lock next (so the fault hits a
	 * holder); for an odd one, or if no grant comes, the contender in slot {@code roll % slots}.
	 */
	private ContenderProcess holderOrSlot(int roll) throws InterruptedException {
		if (roll % 2 == 0) {
			try (EventStream events = this.lab.history().subscribe()) {
				Event grant = events.next("a grant", (e) -> e.isGrant() && e.lockPath().equals(this.lockPath),
						this.session.multipliedBy(4));
				ContenderProcess holder = this.lab.live()
					.stream()
					.filter((c) -> c.id().equals(grant.process()))
					.findFirst()
					.orElse(null);
				if (holder != null) {
					return holder;
				}
			}
			catch (AssertionError noGrant) {
				// nobody is granted now: fall back to the slot
			}
		}
		return contenderInSlot(roll);
	}

	/** The live contender in slot {@code roll % slots}: {@code c3} or its replacement {@code c3#2}. */
	private ContenderProcess contenderInSlot(int roll) {
		String slot = "c" + (roll % this.slots + 1);
		return this.lab.live()
			.stream()
			.filter((c) -> c.id().split("#")[0].equals(slot))
			.max(Comparator.comparing(ContenderProcess::id))
			.orElseThrow(() -> new IllegalStateException("No live contender in slot " + slot));
	}

	private static long between(Duration low, Duration high, double roll) {
		return low.toMillis() + (long) (roll * (high.toMillis() - low.toMillis()));
	}

	private static void hold(long millis) {
		Duration held = Duration.ofMillis(millis);
		await().pollDelay(held).atMost(held.plusSeconds(5)).until(() -> true);
	}

}
