package com.example.orders;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.autoconfigure.embedded.EmbeddedZooKeeperServer;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Runs the code of {@code docs/getting-started.md} (this package, and its
 * {@code application.yml} with the {@code dev} profile) as the guide describes it for
 * development: the in-process ZooKeeper server, the first locked method, and the lock API.
 * {@code io.zklock.sample.docs.GettingStartedDocTests} checks that the guide shows exactly
 * these files.
 */
@SpringBootTest(classes = OrdersApplication.class, webEnvironment = WebEnvironment.NONE,
		properties = "spring.config.location=classpath:com/example/orders/")
@ActiveProfiles("dev")
@DirtiesContext
@Timeout(60)
@Tag("slow")
class GettingStartedTests {

	private final ExecutorService threads = Executors.newFixedThreadPool(4);

	@Autowired
	private OrderService orders;

	@Autowired
	private ShippingLedger ledger;

	@Autowired
	private ReportJob reports;

	@Autowired
	private ILockByCurator locks;

	@Autowired
	private CuratorFramework client;

	@Autowired
	private EmbeddedZooKeeperServer server;

	@AfterEach
	void stopThreads() throws InterruptedException {
		this.threads.shutdownNow();
		assertThat(this.threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void shouldConnectToTheInProcessServerOfApplicationYml() {
		assertThat(this.client.getZookeeperClient().getCurrentConnectionString())
			.isEqualTo(this.server.getConnectString());
	}

	@Test
	void shouldShipConcurrentCallsOneAtATimeWithIncreasingFencingTokens() throws Exception {
		List<Future<?>> calls = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			calls.add(this.threads.submit(() -> this.orders.ship("42")));
		}
		for (Future<?> call : calls) {
			call.get(30, TimeUnit.SECONDS);  // the ledger would have thrown on a stale token
		}
		assertThat(this.ledger.shipments("42")).isEqualTo(20);
	}

	@Test
	void shouldMakeShipWaitWhileAnotherHolderHasTheOrdersLock() throws Exception {
		CountDownLatch release = new CountDownLatch(1);
		CompletableFuture<Void> holding = new CompletableFuture<>();
		Future<?> holder = this.threads.submit(() -> {
			try (LockHandle lock = this.locks.acquire("orders/7", LockMode.EXCLUSIVE)) {
				holding.complete(null);
				release.await(30, TimeUnit.SECONDS);
			}
			return null;
		});
		holding.get(30, TimeUnit.SECONDS);
		Future<?> ship = this.threads.submit(() -> this.orders.ship("7"));
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.client.getChildren().forPath("/locks/orders/7").size() == 2);
		assertThat(ship).isNotDone();
		assertThat(this.ledger.shipments("7")).isZero();
		release.countDown();
		holder.get(30, TimeUnit.SECONDS);
		ship.get(30, TimeUnit.SECONDS);
		assertThat(this.ledger.shipments("7")).isOne();
	}

	@Test
	void shouldSkipTheReportJobWhileAnotherInstanceRebuilds() throws Exception {
		assertThat(this.reports.rebuildIfIdle()).isTrue();
		CountDownLatch release = new CountDownLatch(1);
		CompletableFuture<Void> holding = new CompletableFuture<>();
		Future<?> holder = this.threads.submit(() -> {
			try (LockHandle lock = this.locks.acquire("reports/daily", LockMode.EXCLUSIVE)) {
				holding.complete(null);
				release.await(30, TimeUnit.SECONDS);
			}
			return null;
		});
		holding.get(30, TimeUnit.SECONDS);
		assertThat(this.reports.rebuildIfIdle()).isFalse();
		release.countDown();
		holder.get(30, TimeUnit.SECONDS);
		assertThat(this.reports.rebuildIfIdle()).isTrue();
	}

}
