package io.zklock.test;

import java.util.List;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.LockContext;
import io.zklock.annotation.OnLockFailure;
import io.zklock.lock.LockMode;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * An application bean with annotated methods that assert their own locks with
 * {@link LockAssert}.
 */
public class LockedOrders {

	@DistributedLock(path = "orders", key = "#id")
	public long ship(long id) {
		return LockAssert.assertLocked("orders/" + id, LockMode.EXCLUSIVE).fencingToken();
	}

	@DistributedLock(path = "orders", key = "#id")
	public void shipAssertingOtherPath(long id) {
		LockAssert.assertLocked("orders/" + (id + 1));
	}

	@DistributedLock(path = "orders", key = "#ids")
	public void merge(List<Long> ids) {
		ids.forEach((id) -> LockAssert.assertLocked("orders/" + id, LockMode.EXCLUSIVE));
	}

	@DistributedLock(path = "orders", key = "#id", waitTime = "0", onFailure = OnLockFailure.SKIP)
	public String shipIfFree(long id) {
		LockAssert.assertLocked("orders/" + id);
		return "shipped " + id + " under token " + LockContext.currentToken();
	}

	@DistributedLock(path = "orders", key = "#id", waitTime = "200ms")
	public void shipWithinAMoment(long id) {
		LockAssert.assertLocked("orders/" + id);
	}

	@DistributedLock(path = "reports", mode = LockMode.READ, waitTime = "0")
	public void readReport() {
		LockAssert.assertLocked("reports", LockMode.READ);
		LockAssert.assertNotLocked("orders");
	}

	/** An application with the bean, zklock's auto-configuration and nothing else. */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(LockedOrders.class)
	public static class Application {

	}

}
