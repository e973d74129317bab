package com.example.orders;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import io.zklock.annotation.DistributedLock;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.test.BusyLock;
import io.zklock.test.EmbeddedZooKeeper;
import io.zklock.test.LockAssert;
import io.zklock.test.LockRecorder;
import io.zklock.test.TestZooKeeper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The samples of docs/testing.md, between {@code tag::name[]} and {@code end::name[]}: the
 * guide shows them as they are here. The application of getting-started (OrderService,
 * ReportJob), plus, for this class, a job that takes a lock every 20 ms, so that the first
 * sample is shown to hold with another test in the class and a scheduled lock in the
 * application.
 */
// tag::first[]
@EmbeddedZooKeeper
@SpringBootTest
class OrderServiceTests {

	@Autowired OrderService orders;
	@Autowired TestZooKeeper zookeeper;   // the server of this class
	@Autowired LockRecorder locks;        // every lock the application takes

	@Test
	void shouldShipUnderTheOrderLock() {
		List<LockRecorder.Acquisition> taken = locks.record(() -> orders.ship("42"));
		assertThat(taken).extracting(LockRecorder.Acquisition::lockPath).contains("orders/42");
	}
	// end::first[]

	@Autowired ReportJob reports;

	@Autowired OrderMerges merges;

	@Autowired Ticker ticker;

	/** The scheduled lock runs during the first sample's test, which must not mind it. */
	@BeforeEach
	void tickDuringTheFirstSample(TestInfo test) {
		this.ticker.enabled = test.getTestMethod().orElseThrow().getName().equals("shouldShipUnderTheOrderLock");
	}

	@AfterEach
	void stopTicking(TestInfo test) {
		if (this.ticker.enabled) {
			await().atMost(Duration.ofSeconds(10)).until(() -> this.ticker.ticks.get() > 0);
		}
		this.ticker.enabled = false;
	}

	@Test
	void shouldWriteTheLedgerUnderTheOrderLock() {
		// the @Primary ledger of LedgerCheckingLock asserts the lock at every write
		orders.ship("43");
		orders.ship("43");
		assertThat(this.locks.acquiredPaths()).contains("orders/43");
	}

	@Test
	void shouldTakeBothLocksInCanonicalOrder() {
		// tag::recorder[]
		List<LockRecorder.Acquisition> taken = locks.record(() -> merges.merge("7", "3"));
		assertThat(taken).extracting(LockRecorder.Acquisition::lockPath)
			.containsExactly("orders/3", "orders/7");          // canonical order
		assertThat(taken.get(1).fencingToken()).isGreaterThan(taken.get(0).fencingToken());
		// end::recorder[]
	}

	// tag::busy[]
	@Test
	void shouldSkipTheReportWhileAnotherInstanceBuildsIt() {
		try (BusyLock busy = zookeeper.holdElsewhere("reports/daily")) {
			assertThat(reports.rebuildIfIdle()).isFalse();   // tryAcquire with Duration.ZERO: busy
		}
		assertThat(reports.rebuildIfIdle()).isTrue();        // free again
	}
	// end::busy[]

	// tag::lock-assert[]
	@TestConfiguration
	static class LedgerCheckingLock {

		// the resource the lock protects, checking that every write runs under that lock
		@Bean
		@Primary
		ShippingLedger checkingLedger() {
			return new ShippingLedger() {
				@Override
				public synchronized void recordShipment(String orderId, long fencingToken) {
					LockAssert.assertLocked("orders/" + orderId, LockMode.EXCLUSIVE);
					super.recordShipment(orderId, fencingToken);
				}
			};
		}

	}
	// end::lock-assert[]

	@TestConfiguration
	@EnableScheduling
	static class OtherLocks {

		@Bean
		OrderMerges orderMerges() {
			return new OrderMerges();
		}

		@Bean
		Ticker ticker() {
			return new Ticker();
		}

	}

	static class OrderMerges {

		@DistributedLock(path = "orders", key = "#into")
		@DistributedLock(path = "orders", key = "#from")
		public void merge(String from, String into) {
		}

	}

	/** A scheduled job that locks "ticker" every 20 ms while enabled. */
	static class Ticker {

		final AtomicInteger ticks = new AtomicInteger();

		volatile boolean enabled;

		@Autowired ILockByCurator locks;

		@Scheduled(fixedDelay = 20)
		public void tick() {
			if (this.enabled) {
				this.locks.tryAcquire("ticker", LockMode.EXCLUSIVE, Duration.ZERO).ifPresent(LockHandle::release);
				this.ticks.incrementAndGet();
			}
		}

	}

// tag::first[]
}
// end::first[]
