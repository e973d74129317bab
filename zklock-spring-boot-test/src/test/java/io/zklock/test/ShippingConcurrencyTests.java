package io.zklock.test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.test.history.CheckResult;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ContextConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample of docs/testing.md, "The lock history and its checker", as written there.
 */
// tag::history[]
@EmbeddedZooKeeper
@SpringBootTest
// end::history[]
@ContextConfiguration(classes = LockedOrders.Application.class) // what an application's test finds by itself
@Timeout(60)
// tag::history[]
class ShippingConcurrencyTests {

	@Autowired LockedOrders orders;   // @DistributedLock(path = "orders", key = "#id") long ship(long id)
	@Autowired LockRecorder locks;

	@Test
	void shouldShipEachOrderOneCallAtATime() throws Exception {
		ExecutorService callers = Executors.newFixedThreadPool(8);
		List<Future<Long>> calls = new ArrayList<>();
		for (int i = 0; i < 40; i++) {
			long id = i % 2;
			calls.add(callers.submit(() -> orders.ship(id)));
		}
		for (Future<Long> call : calls) {
			call.get(30, TimeUnit.SECONDS);
		}
		callers.shutdown();

		CheckResult result = locks.check().assertSafe();   // names the two holds if any overlapped
		assertThat(result.grants()).isEqualTo(40);
	}

}
// end::history[]
