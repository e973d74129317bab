package io.zklock.sample.inventory;

import io.zklock.lock.LockAcquisitionException;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Maps inventory failures to problem details: a lock not acquired in time to 503, a stale
 * fencing token to 409, invalid input to 400.
 */
@RestControllerAdvice
public class InventoryExceptionHandler {

	/**
	 * The lock wait ran out; the client may retry.
	 * @param ex the failure
	 * @return a 503 problem
	 */
	@ExceptionHandler
	public ProblemDetail lockNotAcquired(LockAcquisitionException ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, ex.getMessage());
		problem.setProperty("lockPath", ex.getLockPath());
		return problem;
	}

	/**
	 * The store refused a write from a holder that lost its lock.
	 * @param ex the failure
	 * @return a 409 problem
	 */
	@ExceptionHandler
	public ProblemDetail staleFencingToken(StaleFencingTokenException ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, ex.getMessage());
		problem.setProperty("fencingToken", ex.getFencingToken());
		problem.setProperty("storedFencingToken", ex.getStoredFencingToken());
		return problem;
	}

	/**
	 * Invalid SKU, quantity or stock.
	 * @param ex the failure
	 * @return a 400 problem
	 */
	@ExceptionHandler
	public ProblemDetail invalidInput(IllegalArgumentException ex) {
		return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, ex.getMessage());
	}

}
