package io.zklock.sample.inventory;

/**
 * The JSON body of {@code POST /inventory/{sku}/reserve}.
 *
 * @param sku the SKU
 * @param quantity the units asked for
 * @param accepted whether the units were reserved
 * @param remaining the stock after the call
 * @param fencingToken the fencing token of the lock that guarded the call, {@code null} when
 * locking is off
 * @param lockWaitMicros microseconds from the controller's call to the start of the guarded
 * method, mostly the wait for the lock
 */
public record ReservationResponse(String sku, int quantity, boolean accepted, int remaining, Long fencingToken,
		long lockWaitMicros) {

	static ReservationResponse of(Reservation reservation, long calledAtNanos) {
		return new ReservationResponse(reservation.sku(), reservation.quantity(), reservation.accepted(),
				reservation.remaining(), reservation.fencingToken(),
				(reservation.enteredAtNanos() - calledAtNanos) / 1000);
	}

}
