package io.zklock.sample.demo;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The figures of one demo run and their printout: what was accepted, what the stock shows,
 * the lost updates and oversold units that follow, lock waits, and the fencing checks.
 */
final class DemoSummary {

	private final boolean locking;

	private final List<ReservationOutcome> outcomes;

	private final List<SkuLine> lines;

	private final long fencingViolations;

	private final TokenOrderCheck tokenOrder;

	private final Percentiles lockWaits;

	private final Duration elapsed;

	private DemoSummary(boolean locking, List<ReservationOutcome> outcomes, List<SkuLine> lines,
			long fencingViolations, Duration elapsed) {
		this.locking = locking;
		this.outcomes = outcomes;
		this.lines = lines;
		this.fencingViolations = fencingViolations;
		this.tokenOrder = TokenOrderCheck.of(outcomes,
				lines.stream().collect(Collectors.toMap(SkuLine::sku, SkuLine::initial)));
		this.lockWaits = Percentiles.of(outcomes.stream()
			.filter(ReservationOutcome::isAnswered)
			.mapToLong((outcome) -> outcome.response().lockWaitMicros())
			.toArray());
		this.elapsed = elapsed;
	}

	/**
	 * Computes the summary.
	 * @param locking whether the instances locked
	 * @param outcomes every reservation's outcome
	 * @param initialStock the stock per SKU before the run, in display order
	 * @param finalStock the stock per SKU after the run
	 * @param fencingViolations the stores' fencing violations, summed over the instances
	 * @param elapsed how long sending the reservations took
	 * @return the summary
	 */
	static DemoSummary of(boolean locking, List<ReservationOutcome> outcomes, Map<String, Integer> initialStock,
			Map<String, Integer> finalStock, long fencingViolations, Duration elapsed) {
		List<SkuLine> lines = new ArrayList<>();
		initialStock.forEach((sku, initial) -> {
			int acceptedUnits = outcomes.stream()
				.filter((outcome) -> outcome.isAccepted() && outcome.sku().equals(sku))
				.mapToInt(ReservationOutcome::quantity)
				.sum();
			lines.add(new SkuLine(sku, initial, finalStock.getOrDefault(sku, 0), acceptedUnits));
		});
		return new DemoSummary(locking, List.copyOf(outcomes), lines, fencingViolations, elapsed);
	}

	long requests() {
		return this.outcomes.size();
	}

	long accepted() {
		return this.outcomes.stream().filter(ReservationOutcome::isAccepted).count();
	}

	long refused() {
		return this.outcomes.stream().filter((outcome) -> outcome.isAnswered() && !outcome.isAccepted()).count();
	}

	long failed() {
		return this.outcomes.stream().filter((outcome) -> !outcome.isAnswered()).count();
	}

	long unitsAccepted() {
		return this.lines.stream().mapToLong(SkuLine::acceptedUnits).sum();
	}

	long unitsDemanded() {
		return this.outcomes.stream().mapToLong(ReservationOutcome::quantity).sum();
	}

	/**
	 * Units accepted but never removed from the stock, over all SKUs.
	 * @return the lost updates in units
	 */
	long lostUpdates() {
		return this.lines.stream().mapToLong(SkuLine::lost).sum();
	}

	/**
	 * Units accepted beyond the initial stock, over all SKUs.
	 * @return the oversold units
	 */
	long oversold() {
		return this.lines.stream().mapToLong(SkuLine::oversold).sum();
	}

	List<SkuLine> lines() {
		return this.lines;
	}

	TokenOrderCheck tokenOrder() {
		return this.tokenOrder;
	}

	long lockWaitMicros(double percentile) {
		return this.lockWaits.get(percentile);
	}

	/**
	 * Whether the run kept the inventory safe: no lost update, no oversell, no fencing
	 * violation, and (when locking) fencing tokens strictly increasing per SKU.
	 * @return {@code true} if safe
	 */
	boolean safe() {
		return lostUpdates() == 0 && oversold() == 0 && this.fencingViolations == 0
				&& (!this.locking || this.tokenOrder.passed());
	}

	/**
	 * Prints the summary.
	 * @param out where to print
	 */
	void print(PrintStream out) {
		double seconds = this.elapsed.toNanos() / 1e9;
		out.printf(Locale.ROOT, "%nResults (locking %s)%n", this.locking ? "ON" : "OFF, zklock.enabled=false");
		out.printf(Locale.ROOT, "  requests          %d in %.1f s (%.0f/s), %d answered, %d failed%n", requests(),
				seconds, requests() / Math.max(seconds, 1e-3), requests() - failed(), failed());
		out.printf(Locale.ROOT, "  reservations      %d accepted, %d refused (out of stock)%n", accepted(), refused());
		out.printf(Locale.ROOT, "  units             %d accepted of %d demanded%n", unitsAccepted(), unitsDemanded());
		out.printf(Locale.ROOT, "  %-10s %8s %8s %9s %8s %6s %9s%n", "SKU", "initial", "final", "accepted", "removed",
				"lost", "oversold");
		for (SkuLine line : this.lines) {
			out.printf(Locale.ROOT, "  %-10s %8d %8d %9d %8d %6d %9d%n", line.sku(), line.initial(), line.finalStock(),
					line.acceptedUnits(), line.removed(), line.lost(), line.oversold());
		}
		out.printf(Locale.ROOT, "  lost updates      %d units (accepted minus removed from stock)%n", lostUpdates());
		out.printf(Locale.ROOT, "  oversold          %d units (accepted beyond the initial stock)%n", oversold());
		out.printf(Locale.ROOT, "  lock wait         p50 %s, p99 %s (controller call to guarded method)%n",
				formatMicros(lockWaitMicros(50)), formatMicros(lockWaitMicros(99)));
		out.printf(Locale.ROOT, "  fencing tokens    %s; store fencing violations: %d%n", describeTokenOrder(),
				this.fencingViolations);
		firstFailure().ifPresent((failure) -> out.printf(Locale.ROOT, "  first failure     %s%n", failure));
		out.println();
		if (safe()) {
			out.println("SAFETY CHECK PASSED: no lost updates, no oversell, fencing tokens strictly increasing per SKU.");
		}
		else {
			out.printf(Locale.ROOT, "SAFETY CHECK FAILED: %d units of lost updates, %d units oversold, %d fencing violations%s.%n",
					lostUpdates(), oversold(), this.fencingViolations,
					(this.locking && !this.tokenOrder.passed()) ? ", fencing token order broken" : "");
			if (!this.locking) {
				out.println("This is the control run: without the lock the instances overwrite each other's stock."
						+ " Run ./demo.sh (locking on) to see zklock prevent it.");
			}
		}
	}

	private String describeTokenOrder() {
		if (!this.tokenOrder.applicable()) {
			return "none (locking off)";
		}
		if (this.tokenOrder.passed()) {
			return "strictly increasing per SKU (" + this.tokenOrder.grants() + " grants replay the stock in token order)";
		}
		return "NOT consistent: " + this.tokenOrder.problem();
	}

	private Optional<String> firstFailure() {
		return this.outcomes.stream()
			.filter((outcome) -> !outcome.isAnswered())
			.findFirst()
			.map((outcome) -> outcome.instance() + " " + outcome.sku() + " -> " + outcome.status() + ": "
					+ abbreviate(outcome.error()));
	}

	private static String formatMicros(long micros) {
		return (micros < 1000) ? micros + " us" : String.format(Locale.ROOT, "%.1f ms", micros / 1000.0);
	}

	private static String abbreviate(String text) {
		String line = String.valueOf(text).replace('\n', ' ');
		return (line.length() > 200) ? line.substring(0, 200) + "..." : line;
	}

	/**
	 * The figures of one SKU.
	 *
	 * @param sku the SKU
	 * @param initial the stock before the run
	 * @param finalStock the stock after the run
	 * @param acceptedUnits the units of the accepted reservations
	 */
	record SkuLine(String sku, int initial, int finalStock, int acceptedUnits) {

		int removed() {
			return this.initial - this.finalStock;
		}

		int lost() {
			return this.acceptedUnits - removed();
		}

		int oversold() {
			return Math.max(0, this.acceptedUnits - this.initial);
		}

	}

}
