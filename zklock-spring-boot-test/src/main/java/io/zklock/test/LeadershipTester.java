package io.zklock.test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

import io.zklock.leadership.Candidacy;
import io.zklock.leadership.CandidacyState;
import io.zklock.leadership.LeaderElection;
import io.zklock.leadership.RevocationReason;
import io.zklock.leadership.Term;
import io.zklock.lock.LockEngine;
import io.zklock.lock.LockMode;

import org.springframework.context.ApplicationContext;

/**
 * Forces the leadership transitions of an application under test on its real ZooKeeper server:
 * grant a role, revoke it for a reason, expire the session, or make another instance lead, so that
 * a test can check what the application does at each (its {@code @LeaderOnly} methods, its
 * leader-scoped beans, its listeners of the leadership events).
 *
 * <pre class="code">
 * &#064;Test
 * void shouldStopTheInvoiceListenerWhenTheConnectionIsSuspended() {
 *     leadership.grant("billing-close");
 *     leadership.revoke("billing-close", RevocationReason.CONNECTION_SUSPENDED);
 *     await().until(() -&gt; !invoiceListener.isRunning());
 * }
 * </pre>
 *
 * In a test class with {@link EmbeddedZooKeeper} and a Spring context, autowire it; with an
 * {@code ApplicationContextRunner}, use {@link #of(ApplicationContext)}. Every wait is bounded
 * (ten seconds); a transition that does not happen in time fails with an
 * {@link IllegalStateException} saying what the role's candidacy is doing. Thread-safe.
 */
public final class LeadershipTester {

	private static final Duration WAIT = Duration.ofSeconds(10);

	/** How often {@link #leadElsewhere(String)} looks whether this application must yield. */
	private static final Duration YIELD_CHECK = Duration.ofMillis(50);

	private final LeaderElection election;

	private final CuratorFramework client;

	/**
	 * Creates a tester of an application's leadership.
	 * @param election the application's election
	 * @param client the Curator client it runs on (the lock engine's)
	 * @throws IllegalArgumentException if an argument is {@code null}
	 */
	public LeadershipTester(LeaderElection election, CuratorFramework client) {
		if (election == null || client == null) {
			throw new IllegalArgumentException("'election' and 'client' must not be null");
		}
		this.election = election;
		this.client = client;
	}

	/**
	 * A tester of the leadership of an application context: its {@link LeaderElection} bean, on the
	 * client of its {@link LockEngine}.
	 * @param context the application context
	 * @return the tester
	 * @throws org.springframework.beans.BeansException if the context has no election (leadership is
	 * off) or no lock engine
	 */
	public static LeadershipTester of(ApplicationContext context) {
		return new LeadershipTester(context.getBean(LeaderElection.class), context.getBean(LockEngine.class).getClient());
	}

	/**
	 * Waits until this application leads a role, as its candidates come and go by themselves.
	 * @param role the role
	 * @return the active term
	 * @throws IllegalStateException if it does not lead within ten seconds, or is no candidate
	 */
	public Term awaitTerm(String role) {
		Candidacy candidacy = candidacy(role);
		try {
			return candidacy.awaitTerm(WAIT)
				.orElseThrow(() -> new IllegalStateException("Role '" + role + "' was not granted to this application "
						+ "within " + WAIT.toSeconds() + " s: " + candidacy + ", leader " + candidacy.leader()
							.map((leader) -> leader.describe())
							.orElse("unknown")));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for role '" + role + "'", ex);
		}
	}

	/**
	 * Makes this application lead a role: rejoins a candidacy that stood down (such as after
	 * {@link #revoke(String, RevocationReason)} with a voluntary reason), and waits for the term.
	 * Another instance that leads must leave first (close a {@link #leadElsewhere(String)}).
	 * @param role the role
	 * @return the active term
	 * @throws IllegalStateException if it does not lead within ten seconds, or is no candidate
	 */
	public Term grant(String role) {
		Candidacy candidacy = candidacy(role);
		if (candidacy.state() == CandidacyState.STOOD_DOWN) {
			candidacy.rejoin();
		}
		return awaitTerm(role);
	}

	/**
	 * Revokes this application's term of a role for a reason, as it would happen:
	 * <ul>
	 * <li>{@link RevocationReason#YIELDED}, {@link RevocationReason#UNHEALTHY},
	 * {@link RevocationReason#SHUTDOWN}: the candidacy steps down for that reason (the role's
	 * leader-scoped work stops, then its node is deleted) and stays out until
	 * {@link #grant(String)}; returns once done;</li>
	 * <li>{@link RevocationReason#CONNECTION_SUSPENDED}: the client's connection is dropped; it
	 * reconnects on the same session and the same term resumes (jeopardy);</li>
	 * <li>{@link RevocationReason#SESSION_LOST}: {@link #expireSession()}; the candidacy queues again
	 * on the new session;</li>
	 * <li>{@link RevocationReason#NODE_DELETED}: the term's lock node is deleted from another
	 * session, as an operator would; the candidacy queues again.</li>
	 * </ul>
	 * The involuntary reasons return once the term is no longer active.
	 * @param role the role, which this application must lead
	 * @param reason the reason
	 * @return the revoked term
	 * @throws IllegalArgumentException for {@link RevocationReason#LEASE_EXPIRED}, which only a
	 * process frozen past its lease produces
	 * @throws IllegalStateException if this application does not lead the role within ten seconds,
	 * or the term is not revoked in time
	 */
	public Term revoke(String role, RevocationReason reason) {
		if (reason == RevocationReason.LEASE_EXPIRED) {
			throw new IllegalArgumentException("A test cannot force LEASE_EXPIRED: it needs the process frozen past its "
					+ "lease (SIGSTOP, a long pause). Use CONNECTION_SUSPENDED for a revocation in jeopardy.");
		}
		Term term = awaitTerm(role);
		switch (reason) {
			case YIELDED, UNHEALTHY, SHUTDOWN -> candidacy(role).stepDown(reason);
			case CONNECTION_SUSPENDED -> dropConnection();
			case SESSION_LOST -> expireSession();
			case NODE_DELETED -> deleteNode(term);
			default -> throw new IllegalArgumentException("Unknown revocation reason " + reason);
		}
		awaitInactive(term, reason);
		return term;
	}

	/**
	 * Ends the application's ZooKeeper session now, as the ensemble would after the session timeout:
	 * a second handle on the same session closes it. Returns once the application's client has seen
	 * the session end (Curator's {@code LOST}): every term has ended ({@code SESSION_LOST}) and the
	 * candidacies queue again on the new session; the application's locks are lost too.
	 * @throws IllegalStateException if the session cannot be reached, or its end is not seen, within
	 * ten seconds
	 */
	public void expireSession() {
		CountDownLatch lost = new CountDownLatch(1);
		ConnectionStateListener listener = (client, state) -> {
			if (state == ConnectionState.LOST) {
				lost.countDown();
			}
		};
		this.client.getConnectionStateListenable().addListener(listener);
		try {
			ZooKeeper zookeeper = this.client.getZookeeperClient().getZooKeeper();
			long sessionId = zookeeper.getSessionId();
			CountDownLatch connected = new CountDownLatch(1);
			ZooKeeper twin = new ZooKeeper(this.client.getZookeeperClient().getCurrentConnectionString(),
					(int) WAIT.toMillis(), (event) -> {
						if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
							connected.countDown();
						}
					}, sessionId, zookeeper.getSessionPasswd());
			try {
				if (!connected.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
					throw new IllegalStateException("Could not reach session 0x" + Long.toHexString(sessionId)
							+ " to expire it within " + WAIT.toSeconds() + " s");
				}
			}
			finally {
				twin.close();
			}
			if (!lost.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
				throw new IllegalStateException("The application's client did not see its session 0x"
						+ Long.toHexString(sessionId) + " end within " + WAIT.toSeconds() + " s");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while expiring the session", ex);
		}
		catch (IllegalStateException ex) {
			throw ex;
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not expire the application's ZooKeeper session: " + ex, ex);
		}
		finally {
			this.client.getConnectionStateListenable().removeListener(listener);
		}
	}

	/**
	 * Makes another instance lead a role: holds it from another ZooKeeper session, as an instance
	 * that leads would, after this application yields it if it leads (it queues again behind). This
	 * application then follows: its {@code @LeaderOnly} calls are skipped and its leader-scoped work
	 * stops. Close the returned lock to let this application lead again.
	 * @param role the role
	 * @return the other instance's hold; close it to end it
	 * @throws IllegalStateException if the role is not held elsewhere within ten seconds
	 */
	public BusyLock leadElsewhere(String role) {
		String namespace = (this.client.getNamespace() != null) ? this.client.getNamespace() : "";
		String connectString = this.client.getZookeeperClient().getCurrentConnectionString();
		CompletableFuture<BusyLock> held = CompletableFuture.supplyAsync(() -> BusyLock.hold(connectString, namespace,
				this.election.getRootPath(), role, LockMode.EXCLUSIVE, WAIT));
		long deadline = System.nanoTime() + WAIT.toNanos();
		try {
			while (true) {
				try {
					return held.get(YIELD_CHECK.toMillis(), TimeUnit.MILLISECONDS);
				}
				catch (TimeoutException ex) {
					if (System.nanoTime() > deadline) {
						throw ex;
					}
					// the other session queues behind this application's node: give the term up (it queues again
					// at the back), again if it was granted before the other session's node was there
					this.election.candidacy(role).filter(Candidacy::isLeader).ifPresent(Candidacy::yield);
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while taking role '" + role + "' elsewhere", ex);
		}
		catch (ExecutionException | TimeoutException ex) {
			throw new IllegalStateException("Could not lead role '" + role + "' elsewhere within " + WAIT.toSeconds()
					+ " s: " + ((ex.getCause() != null) ? ex.getCause().getMessage() : ex.toString()), ex);
		}
	}

	/**
	 * Closes the client's socket, then sends a request: it wakes the client's I/O thread, which finds
	 * the socket closed at once (alone, it would notice only at its next request, up to a third of the
	 * session timeout later).
	 */
	private void dropConnection() {
		try {
			ZooKeeper zookeeper = this.client.getZookeeperClient().getZooKeeper();
			zookeeper.getTestable().closeSocket();
			zookeeper.exists("/", false, (rc, path, ctx, stat) -> {
			}, null);
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not drop the application's ZooKeeper connection: " + ex, ex);
		}
	}

	/** Deletes the term's node from another session, as an operator's tool would. */
	private void deleteNode(Term term) {
		String path = term.lock().nodePath();
		ExecutorService safeNotify = Executors.newSingleThreadExecutor((runnable) -> {
			Thread thread = new Thread(runnable, "zklock-test-leadership-safe-notify");
			thread.setDaemon(true);
			return thread;
		});
		// Curator 5.9 never stops the safe-notify thread it makes itself: give it one to stop
		CuratorFramework other = CuratorFrameworkFactory.builder()
			.connectString(this.client.getZookeeperClient().getCurrentConnectionString())
			.namespace(this.client.getNamespace())
			.retryPolicy(new RetryOneTime(100))
			.runSafeService(safeNotify)
			.build();
		try {
			other.start();
			if (!other.blockUntilConnected((int) WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
				throw new IllegalStateException("ZooKeeper did not answer within " + WAIT.toSeconds() + " s");
			}
			other.delete().forPath(path);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while deleting the node of role '" + term.role() + "'", ex);
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not delete the lock node " + ZKPaths.getNodeFromPath(path)
					+ " of role '" + term.role() + "': " + ex, ex);
		}
		finally {
			other.close();
			safeNotify.shutdownNow();
		}
	}

	/** Waits until the term is not active: its loss listeners run each time it stops being active. */
	private void awaitInactive(Term term, RevocationReason reason) {
		CountDownLatch inactive = new CountDownLatch(1);
		Runnable unregister = term.lock().onLost((handle) -> inactive.countDown());
		try {
			if (!inactive.await(WAIT.toMillis(), TimeUnit.MILLISECONDS) && term.isActive()) {
				throw new IllegalStateException("The term of role '" + term.role() + "' was not revoked (" + reason
						+ ") within " + WAIT.toSeconds() + " s");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for the revocation of role '" + term.role()
					+ "'", ex);
		}
		finally {
			unregister.run();
		}
	}

	private Candidacy candidacy(String role) {
		return this.election.candidacy(role)
			.orElseThrow(() -> new IllegalStateException("This application is no candidate for role '" + role
					+ "': declare it (@LeaderOnly(\"" + role + "\"), @LeaderScoped or zklock.leadership.roles."
					+ role + ".candidate=true), and check that zklock.leadership.candidate is not false"));
	}

	@Override
	public String toString() {
		return "LeadershipTester[" + this.election + "]";
	}

}
