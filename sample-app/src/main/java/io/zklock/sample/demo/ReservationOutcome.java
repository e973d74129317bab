package io.zklock.sample.demo;

import io.zklock.sample.inventory.ReservationResponse;

/**
 * What one reservation request of the demo got back.
 *
 * @param instance the name of the instance that served it
 * @param sku the SKU
 * @param quantity the units asked for
 * @param status the HTTP status, {@code 0} if no answer came
 * @param response the parsed body of a 200 answer, otherwise {@code null}
 * @param error what went wrong when there is no response, otherwise {@code null}
 */
public record ReservationOutcome(String instance, String sku, int quantity, int status, ReservationResponse response,
		String error) {

	/**
	 * An answered request.
	 * @param instance the instance
	 * @param response the parsed body
	 * @return the outcome
	 */
	public static ReservationOutcome answered(String instance, ReservationResponse response) {
		return new ReservationOutcome(instance, response.sku(), response.quantity(), 200, response, null);
	}

	/**
	 * A failed request.
	 * @param instance the instance
	 * @param sku the SKU
	 * @param quantity the units asked for
	 * @param status the HTTP status, {@code 0} if no answer came
	 * @param error what went wrong
	 * @return the outcome
	 */
	public static ReservationOutcome failed(String instance, String sku, int quantity, int status, String error) {
		return new ReservationOutcome(instance, sku, quantity, status, null, error);
	}

	/**
	 * Whether the request got a reservation answer (accepted or refused).
	 * @return {@code true} for a 200 answer
	 */
	public boolean isAnswered() {
		return this.response != null;
	}

	/**
	 * Whether the units were reserved.
	 * @return {@code true} if answered and accepted
	 */
	public boolean isAccepted() {
		return this.response != null && this.response.accepted();
	}

}
