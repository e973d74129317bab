package io.zklock.docs;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.LockContext;
import io.zklock.annotation.OnHoldExceeded;
import io.zklock.annotation.OnLockFailure;
import io.zklock.annotation.ReactiveLockContext;
import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockEngine;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockRefusal;
import io.zklock.lock.LockRequest;
import io.zklock.lock.SemaphoreByCurator;
import io.zklock.lock.SharedLockByCurator;
import io.zklock.lock.event.LockListener;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.transaction.annotation.Transactional;

/**
 * The Java samples of README.md and docs/usage.md, each between {@code tag::name[]} and {@code end::name[]}
 * comments, which those pages show as they are here ({@code DocSamplesTests} of sample-app
 * compares them); {@link ReadmeSamplesTests} runs them against a real server.
 */
final class ReadmeSamples {

	private ReadmeSamples() {
	}

	record Order(String id) {
	}

	record Report(String name) {
	}

	record Item(String feed, long fencingToken) {
	}

	/** What the samples write to, with the fencing token of each write. */
	static class Store {

		final List<String> writes = new CopyOnWriteArrayList<>();

		final Map<String, Integer> stock = new ConcurrentHashMap<>(Map.of("sku-1", 10));

		long write(Object what, long fencingToken) {
			this.writes.add(what + "@" + fencingToken);
			return fencingToken;
		}

		Mono<Integer> read(String sku) {
			return Mono.fromSupplier(() -> this.stock.get(sku));
		}

		Mono<Void> write(String sku, int quantity, long fencingToken) {
			return Mono.fromRunnable(() -> {
				this.stock.put(sku, quantity);
				write(sku + "=" + quantity, fencingToken);
			});
		}

	}

	/** The annotated method of "Use it". */
	static class Shipping {

		private final Store shipments;

		Shipping(Store shipments) {
			this.shipments = shipments;
		}

		// tag::annotation[]
		@DistributedLock(path = "orders", key = "#order.id", waitTime = "5s")
		public void ship(Order order) {
			long token = LockContext.currentToken();   // fencing token: pass it to the resource you write
			this.shipments.write(order, token);
		}
		// end::annotation[]

	}

	/** The injected API of "Use it". */
	static class LockCalls {

		// tag::api[]
		@Autowired ILockByCurator locks;               // ExclusiveLockByCurator unless you define your own

		// end::api[]
		@Autowired Store store;

		Optional<LockHandle> all(Order order, Report report) {
			// tag::api[]
			try (LockHandle lock = locks.tryAcquire("orders/42", LockMode.EXCLUSIVE, Duration.ofSeconds(5))
					.orElseThrow(() -> new IllegalStateException("busy"))) {
				write(order, lock.fencingToken());
			}

			locks.executeLocked("reports", LockMode.WRITE, Duration.ofSeconds(5), () -> rebuild());
			long written = locks.executeLocked("reports", LockMode.WRITE, Duration.ofSeconds(5),
					(lock) -> store.write(report, lock.fencingToken()));

			locks.acquireDistributedLock("orders/42");     // the classic thread-owned pair
			try { audit(order); } finally { locks.releaseDistributedLock("orders/42"); }

			// the one primitive every call above goes through
			Optional<LockHandle> lock = locks.tryAcquire(LockRequest.of("orders/42", LockMode.EXCLUSIVE)
					.waitAtMost(Duration.ofSeconds(5))
					.named("orders"));                     // label of metrics and events
			// end::api[]
			this.store.write("written", written);
			return lock;
		}

		private void write(Order order, long fencingToken) {
			this.store.write(order, fencingToken);
		}

		private void rebuild() {
			this.store.write("rebuilt", -1);
		}

		private void audit(Order order) {
			this.store.write("audited " + order.id(), -1);
		}

	}

	/** "Without Spring". */
	static class PlainCurator {

		static long lockWithoutSpring(String connectString, Order order, Store store) throws Exception {
			// tag::without-spring[]
			CuratorFramework client = CuratorFrameworkFactory.newClient(connectString, new ExponentialBackoffRetry(100, 3));
			client.start();
			ILockByCurator locks = new ExclusiveLockByCurator(client, "/locks");
			try (LockHandle lock = locks.acquire("orders/42", LockMode.EXCLUSIVE)) {
				store.write(order, lock.fencingToken());
			}
			// end::without-spring[]
			client.close();
			return store.writes.size();
		}

		/** "Why an acquire returned empty": what the caller does with each reason. */
		static String tryOnce(ILockByCurator locks, Store store) {
			// tag::why-empty[]
			Optional<LockHandle> lock = locks.tryAcquire("orders/42", LockMode.EXCLUSIVE, Duration.ZERO);
			if (lock.isEmpty()) {
				LockRefusal refusal = locks.lastRefusal().orElseThrow();   // this thread's last acquire
				return switch (refusal.reason()) {
					case BUSY -> "try later";                              // another holder has it
					case NOT_CONNECTED -> "ensemble out of reach";
					case DEADLOCK, OWN_CALL_OWNED_HOLD -> refusal.message(); // a bug here: names the cycle
				};
			}
			// end::why-empty[]
			try (LockHandle held = lock.get()) {
				store.write("tried once", held.fencingToken());
				return "acquired";
			}
		}

		static SemaphoreByCurator sharedEngine(CuratorFramework client, LockListener myListener) {
			// tag::shared-engine[]
			LockEngine engine = new LockEngine(client, "/locks");
			engine.addListener(myListener);
			ILockByCurator locks = new ExclusiveLockByCurator(engine);
			SharedLockByCurator readWrite = new SharedLockByCurator(engine);
			SemaphoreByCurator semaphores = new SemaphoreByCurator(engine);
			// end::shared-engine[]
			locks.acquire("orders/42", LockMode.EXCLUSIVE).release();
			readWrite.acquire("orders/42", LockMode.READ).release();
			return semaphores;
		}

		static LockEngine engineOfItsOwn(CuratorFramework client) {
			// tag::engine-builder[]
			LockEngine engine = LockEngine.builder(client)
				.rootPath("/locks")
				.holder("billing", "billing-1")                 // what its lock nodes say of their holder
				.localHandoff(true)                             // hand held nodes to this engine's waiters
				.leakDetection(true, Duration.ofMinutes(10))    // report holds that last longer
				.build();
			// end::engine-builder[]
			return engine;
		}

	}

	/** "Transactions". */
	static class Settlement {

		private final Ledger ledger;

		Settlement(Ledger ledger) {
			this.ledger = ledger;
		}

		// tag::transaction[]
		@Transactional                                   // outer transaction
		public void settle(String account) {
			ledger.post(account);                        // @DistributedLock(path = "accounts", key = "#account")
		}                                                // lock released after this commits
		// end::transaction[]

	}

	static class Ledger {

		private final List<String> posted = new CopyOnWriteArrayList<>();

		public List<String> posted() {
			return this.posted;
		}

		@DistributedLock(path = "accounts", key = "#account")
		public void post(String account) {
			this.posted.add(account + "@" + LockContext.currentToken());
		}

		// tag::two-locks[]
		@DistributedLock(path = "accounts", key = "#from")
		@DistributedLock(path = "accounts", key = "#to")
		public void transfer(String from, String to, long cents) { move(from, to, cents); }   // no deadlock with transfer(to, from)
		// end::two-locks[]

		private void move(String from, String to, long cents) {
			this.posted.add(from + "->" + to + ":" + cents + "@" + LockContext.currentLocks().size());
		}

	}

	/** "Async and reactive methods". */
	static class Exports {

		private final Renderer renderer = new Renderer();

		private final FeedClient client = new FeedClient();

		// tag::async[]
		@DistributedLock(path = "exports", key = "#id")
		public CompletableFuture<Report> export(String id) { return renderer.renderAsync(id); }

		@DistributedLock(path = "feeds", key = "#feed")
		public Flux<Item> poll(String feed) { return client.fetch(feed); }
		// end::async[]

	}

	static class Renderer {

		CompletableFuture<Report> renderAsync(String id) {
			return CompletableFuture.supplyAsync(() -> new Report(id));
		}

	}

	static class FeedClient {

		Flux<Item> fetch(String feed) {
			return ReactiveLockContext.currentToken().flatMapMany((token) -> Flux.just(new Item(feed, token)));
		}

	}

	/** "Scheduled jobs". */
	static class Reports {

		private final List<String> runs = new CopyOnWriteArrayList<>();

		public List<String> runs() {
			return this.runs;
		}

		static class OneAtATime extends Reports {

			// tag::scheduled[]
			@Scheduled(fixedDelay = 60_000)
			@DistributedLock(path = "nightly-report", waitTime = "0", onFailure = OnLockFailure.SKIP)
			public void report() { rebuild(); }                     // runs on one instance at a time, others skip
			// end::scheduled[]

		}

		static class OncePerFiring extends Reports {

			// tag::hold-at-least[]
			@Scheduled(cron = "0 */5 * * * *")
			@DistributedLock(path = "report", holdAtLeast = "30s", waitTime = "0", onFailure = OnLockFailure.SKIP)
			public void report() { rebuild(); }                     // once per firing across the fleet, even if it takes 50 ms
			// end::hold-at-least[]

		}

		void rebuild() {
			this.runs.add(Thread.currentThread().getName() + "@" + LockContext.currentToken());
		}

	}

	/** "A hold that never ends". */
	static class Imports {

		@Autowired ILockByCurator locks;

		@Autowired Store store;

		// tag::hold-at-most[]
		@Scheduled(fixedDelay = 60_000)
		@DistributedLock(path = "imports", holdAtMost = "10m", onHoldExceeded = OnHoldExceeded.INTERRUPT)
		public void importFeed() { pull(); }                  // past 10 min: a WARN with this thread's stack, then an interrupt
		// end::hold-at-most[]

		void importFeedByHand() {
			// tag::hold-at-most-api[]
			try (LockHandle lock = locks.acquire(LockRequest.of("imports", LockMode.EXCLUSIVE)
					.waitAtMost(Duration.ofSeconds(5))
					.holdAtMost(Duration.ofMinutes(10)))) {    // reported past 10 min, never released by it
				pull(lock.fencingToken());
			}
			// end::hold-at-most-api[]
		}

		private void pull() {
			pull(LockContext.currentToken());
		}

		private void pull(long fencingToken) {
			this.store.write("imported", fencingToken);
		}

	}

	/** "Reactive: the fencing token". */
	static class Inventory {

		private final Store stock;

		Inventory(Store stock) {
			this.stock = stock;
		}

		// tag::reactive[]
		@DistributedLock(path = "inventory", key = "#sku")
		public Mono<Void> reserve(String sku, int qty) {
			return stock.read(sku)
				.zipWith(ReactiveLockContext.currentToken())
				.flatMap((read) -> stock.write(sku, read.getT1() - qty, read.getT2()));
		}
		// end::reactive[]

	}

}
