package io.zklock.sample.demo;

import java.util.Comparator;
import java.util.List;
import java.util.Map;

import io.zklock.sample.inventory.ReservationResponse;

/**
 * Checks from the answers alone that the fencing tokens of each SKU's reservations are
 * strictly increasing in the order the reservations took effect: ordered by token, the
 * answers must replay the stock exactly (each accepted one removes its units from the stock
 * the one before left, each refused one saw that stock and found it too low).
 *
 * @param applicable whether the answers carry tokens (not when locking is off)
 * @param grants how many answered reservations were checked
 * @param problem the first inconsistency found, or {@code null} if none
 */
record TokenOrderCheck(boolean applicable, int grants, String problem) {

	/**
	 * Whether the check applied and found no inconsistency.
	 * @return {@code true} if the tokens are strictly increasing and replay the stock
	 */
	boolean passed() {
		return this.applicable && this.problem == null;
	}

	/**
	 * Runs the check.
	 * @param outcomes all outcomes of the run; failed ones are ignored
	 * @param initialStock the stock of every SKU before the run
	 * @return the result
	 */
	static TokenOrderCheck of(List<ReservationOutcome> outcomes, Map<String, Integer> initialStock) {
		List<ReservationResponse> answers = outcomes.stream()
			.filter(ReservationOutcome::isAnswered)
			.map(ReservationOutcome::response)
			.toList();
		if (answers.isEmpty() || answers.stream().anyMatch((answer) -> answer.fencingToken() == null)) {
			return new TokenOrderCheck(false, 0, null);
		}
		for (Map.Entry<String, Integer> sku : initialStock.entrySet()) {
			String problem = replay(sku.getKey(), sku.getValue(), answers);
			if (problem != null) {
				return new TokenOrderCheck(true, answers.size(), problem);
			}
		}
		return new TokenOrderCheck(true, answers.size(), null);
	}

	private static String replay(String sku, int initialStock, List<ReservationResponse> answers) {
		List<ReservationResponse> ordered = answers.stream()
			.filter((answer) -> answer.sku().equals(sku))
			.sorted(Comparator.comparing(ReservationResponse::fencingToken))
			.toList();
		int stock = initialStock;
		long previousToken = Long.MIN_VALUE;
		for (ReservationResponse answer : ordered) {
			if (answer.fencingToken() <= previousToken) {
				return sku + ": fencing token " + answer.fencingToken() + " was granted twice";
			}
			previousToken = answer.fencingToken();
			int expected = answer.accepted() ? stock - answer.quantity() : stock;
			if (answer.remaining() != expected || (!answer.accepted() && stock >= answer.quantity())) {
				return sku + ": the reservation with token " + answer.fencingToken() + " (" + answer.quantity()
						+ " units, " + (answer.accepted() ? "accepted" : "refused") + ", " + answer.remaining()
						+ " left) does not follow the stock of " + stock + " left by the smaller tokens";
			}
			stock = expected;
		}
		return null;
	}

}
