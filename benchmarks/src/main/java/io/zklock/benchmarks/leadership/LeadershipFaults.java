package io.zklock.benchmarks.leadership;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.zklock.benchmarks.Scale;
import io.zklock.benchmarks.server.ServerKind;

/**
 * Scenario 15's measurement: for each {@link LeaderLibrary}, three leader processes on fresh
 * servers of the section's kind ({@link LeadershipServers}), session timeout 2 s, and the faults
 * on the leader, one after another: frozen for 2T, cut off for 2T, killed, leaving gracefully
 * (each process once to warm the leave's code up, then measured), its connection dropped; then, on three fresh processes each, the dropped connection again while
 * the library's grant callback blocks for 60 s, and while its revocation callback does.
 */
public final class LeadershipFaults {

	/** The session timeout of every leader process, T. */
	public static final Duration SESSION_TIMEOUT = Duration.ofSeconds(2);

	/** How long a user callback blocks in the blocking runs. */
	public static final Duration BLOCK = Duration.ofSeconds(60);

	/** The longest a dropped connection is watched for leader work that goes on. */
	public static final Duration DROP_CAP = Duration.ofSeconds(3);

	private static final Duration RECOVERY = Duration.ofSeconds(15);

	private LeadershipFaults() {
	}

	/**
	 * How many of each fault a run injects.
	 * @param freezes leader frozen for 2T
	 * @param cutOffs leader cut off for 2T
	 * @param kills leader killed
	 * @param handovers leader leaving gracefully (and joining again)
	 * @param drops leader's connection dropped
	 * @param blockedDrops the same, in each blocking-callback run (0: no such runs)
	 */
	public record Plan(int freezes, int cutOffs, int kills, int handovers, int drops, int blockedDrops) {

		/**
		 * The plan of a scale: the full one for the results, a short one for CI.
		 * @param scale the scale
		 * @return the plan
		 */
		public static Plan of(Scale scale) {
			return scale.isQuick() ? new Plan(1, 0, 1, 3, 3, 0) : new Plan(3, 2, 3, 40, 20, 5);
		}

	}

	/**
	 * What one section measured.
	 * @param servers how the servers ran
	 * @param figures each library's figures, in {@link LeaderLibrary} order
	 */
	public record Section(String servers, Map<LeaderLibrary, LibraryFigures> figures) {
	}

	/**
	 * Measures every library on fresh servers of a kind.
	 * @param kind {@link ServerKind#PROCESS} or {@link ServerKind#ENSEMBLE}
	 * @param plan how many of each fault
	 * @return the section's figures
	 * @throws Exception if the servers do not start
	 */
	public static Section measure(ServerKind kind, Plan plan) throws Exception {
		try (LeadershipServers servers = LeadershipServers.start(kind)) {
			Map<LeaderLibrary, LibraryFigures> all = new LinkedHashMap<>();
			for (LeaderLibrary library : LeaderLibrary.values()) {
				LibraryFigures figures = new LibraryFigures(library);
				all.put(library, figures);
				measure(library, servers, plan, figures);
				System.out.printf(Locale.ROOT, "  %s%n", figures);
			}
			return new Section(servers.description(), all);
		}
	}

	private static void measure(LeaderLibrary library, LeadershipServers servers, Plan plan, LibraryFigures figures) {
		Duration twice = SESSION_TIMEOUT.multipliedBy(2);
		try (LeaderRun run = new LeaderRun(library, servers, SESSION_TIMEOUT, "faults-" + library.id(), "-")) {
			run.start(3);
			for (int i = 0; i < plan.freezes(); i++) {
				figures.freezes.add(run.freeze(twice));
			}
			for (int i = 0; i < plan.cutOffs(); i++) {
				figures.cutOffs.add(run.cutOff(twice));
			}
			for (int i = 0; i < plan.kills(); i++) {
				figures.kills.add(run.kill());
			}
			// each process's first leave runs code its JVM has not run yet (class loading, the
			// interpreter): kept apart, as every scenario warms a library up before it measures it
			for (int i = 0; i < 3; i++) {
				figures.firstHandovers.add(run.handOver());
			}
			for (int i = 0; i < plan.handovers(); i++) {
				figures.handovers.add(run.handOver());
			}
			for (int i = 0; i < plan.drops(); i++) {
				figures.drops.add(run.drop(DROP_CAP, RECOVERY));
			}
		}
		catch (Exception ex) {
			figures.notes.add("the fault run stopped: " + firstLine(ex));
			ex.printStackTrace(System.out);
		}
		if (plan.blockedDrops() > 0) {
			blocked(library, servers, plan, "onGranted", figures.blockedGrant, figures);
			blocked(library, servers, plan, "onRevoked", figures.blockedRevocation, figures);
		}
	}

	private static void blocked(LeaderLibrary library, LeadershipServers servers, Plan plan, String callback,
			List<LibraryFigures.Suspension> into, LibraryFigures figures) {
		String block = callback + ":" + BLOCK.toMillis();
		try (LeaderRun run = new LeaderRun(library, servers, SESSION_TIMEOUT,
				"blocked-" + callback + "-" + library.id(), block)) {
			run.start(3);
			for (int i = 0; i < plan.blockedDrops(); i++) {
				LibraryFigures.Suspension suspension = run.drop(DROP_CAP, RECOVERY);
				into.add(suspension);
				if (!suspension.recovered()) {
					figures.notes.add(String.format(Locale.ROOT, "%s blocking: after drop %d, %s; later drops not "
							+ "measured", callback, i + 1, suspension.unrecovered()));
					break;
				}
			}
		}
		catch (Exception ex) {
			figures.notes.add(callback + " blocking run stopped: " + firstLine(ex));
			ex.printStackTrace(System.out);
		}
	}

	private static String firstLine(Exception ex) {
		return (ex.getMessage() != null) ? ex.getMessage().lines().findFirst().orElse(ex.toString()) : ex.toString();
	}

}
