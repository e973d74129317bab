package io.zklock.benchmarks.leadership;

import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;

import io.zklock.integration.ZkLockRegistry;
import io.zklock.leadership.Candidacy;
import io.zklock.leadership.LeaderElection;
import io.zklock.leadership.LeadershipListener;
import io.zklock.leadership.RevocationReason;
import io.zklock.leadership.Term;
import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.LockEngine;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.data.Stat;

import org.springframework.integration.leader.Context;
import org.springframework.integration.leader.DefaultCandidate;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;

/**
 * One leader process's candidacy through one {@link LeaderLibrary}, as an application uses it:
 * join, leave gracefully, and the check before every write with the token the write carries. The
 * library's grant and revocation callbacks are reported to {@link Callbacks}, which may block in
 * them (a user callback that starts or stops something slow in line). Not thread-safe except
 * {@link #mayWrite()} and {@link #token()}, which the work thread calls.
 */
interface Leadership extends AutoCloseable {

	/** Joins the role (again after {@link #leave()}). */
	void join() throws Exception;

	/** Leaves the role the library's graceful way. */
	void leave() throws Exception;

	/**
	 * The check before a write: whether this process may act as leader now, as the library's docs
	 * advise to ask.
	 * @return {@code true} if it may write
	 */
	boolean mayWrite();

	/**
	 * The token the write after a passed {@link #mayWrite()} carries.
	 * @return the token, or {@code null} if the library gives none
	 */
	Long token();

	@Override
	void close() throws Exception;

	/** What a library's callbacks report, and where they may block. */
	interface Callbacks {

		/** The library granted leadership, with this token (or none). */
		void granted(Long token);

		/** The library revoked leadership. */
		void revoked();

	}

	/**
	 * Opens a library's candidacy for a role on a started client.
	 * @param library the library
	 * @param client the process's Curator client, connected
	 * @param id the process's id (the candidate's id)
	 * @param role the role
	 * @param callbacks where grants and revocations go
	 * @return the candidacy, not joined yet
	 */
	static Leadership open(LeaderLibrary library, CuratorFramework client, String id, String role,
			Callbacks callbacks) {
		return switch (library) {
			case CURATOR_LEADER_LATCH -> new Latch(client, id, "/bench-leaders/latch/" + role, callbacks);
			case SPRING_INTEGRATION -> new Initiator(client, id, role, callbacks);
			case ZKLOCK -> new Election(client, id, role, callbacks);
		};
	}

	/**
	 * Curator's {@code LeaderLatch} as its docs advise: a connection-state listener stops the work
	 * on {@code SUSPENDED} and {@code LOST} until {@code RECONNECTED}; the work asks
	 * {@code hasLeadership()} before every write; the token is the latch node's {@code czxid},
	 * read in {@code isLeader()}.
	 */
	final class Latch implements Leadership {

		private final CuratorFramework client;

		private final String id;

		private final String path;

		private final Callbacks callbacks;

		private final ConnectionStateListener suspension = (c, state) -> {
			if (state == ConnectionState.SUSPENDED || state == ConnectionState.LOST) {
				setSuspended(true);
			}
			else if (state == ConnectionState.RECONNECTED) {
				setSuspended(false);
			}
		};

		private volatile boolean suspended;

		private volatile LeaderLatch latch;

		private volatile Long token;

		Latch(CuratorFramework client, String id, String path, Callbacks callbacks) {
			this.client = client;
			this.id = id;
			this.path = path;
			this.callbacks = callbacks;
			client.getConnectionStateListenable().addListener(this.suspension);
		}

		private void setSuspended(boolean suspended) {
			this.suspended = suspended;
		}

		@Override
		public void join() throws Exception {
			LeaderLatch joined = new LeaderLatch(this.client, this.path, this.id);
			joined.addListener(new LeaderLatchListener() {

				@Override
				public void isLeader() {
					Long czxid = null;
					try {
						Stat stat = Latch.this.client.checkExists().forPath(joined.getOurPath());
						czxid = (stat != null) ? stat.getCzxid() : null;
					}
					catch (Exception ex) {
						// no token: the write carries none
					}
					Latch.this.token = czxid;
					Latch.this.callbacks.granted(czxid);
				}

				@Override
				public void notLeader() {
					Latch.this.callbacks.revoked();
				}

			});
			this.latch = joined;
			joined.start();
		}

		@Override
		public void leave() throws Exception {
			LeaderLatch current = this.latch;
			if (current != null) {
				current.close();
			}
		}

		@Override
		public boolean mayWrite() {
			LeaderLatch current = this.latch;
			return !this.suspended && current != null && current.hasLeadership();
		}

		@Override
		public Long token() {
			return this.token;
		}

		@Override
		public void close() throws Exception {
			leave();
		}

	}

	/**
	 * Spring Integration's {@code LockRegistryLeaderInitiator} over zklock's {@code ZkLockRegistry}
	 * (its defaults: heartbeat 500 ms, busy wait 50 ms): the work asks {@code Context.isLeader()}
	 * before every write; the token is the registry's fencing token of the role, read in
	 * {@code onGranted}.
	 */
	final class Initiator implements Leadership {

		private final LockEngine engine;

		private final ZkLockRegistry registry;

		private final LockRegistryLeaderInitiator initiator;

		private final AtomicReference<Context> context = new AtomicReference<>();

		private volatile Long token;

		Initiator(CuratorFramework client, String id, String role, Callbacks callbacks) {
			this.engine = new LockEngine(client, "/bench-leaders/initiator");
			this.registry = new ZkLockRegistry(new ExclusiveLockByCurator(this.engine));
			this.initiator = new LockRegistryLeaderInitiator(this.registry, new DefaultCandidate(id, role) {

				@Override
				public void onGranted(Context granted) {
					Initiator.this.context.set(granted);
					OptionalLong fencingToken = Initiator.this.registry.fencingToken(role);
					Initiator.this.token = fencingToken.isPresent() ? fencingToken.getAsLong() : null;
					callbacks.granted(Initiator.this.token);
				}

				@Override
				public void onRevoked(Context revoked) {
					callbacks.revoked();
				}

			});
		}

		@Override
		public void join() {
			this.initiator.start();
		}

		@Override
		public void leave() {
			this.initiator.stop();
		}

		@Override
		public boolean mayWrite() {
			Context current = this.context.get();
			return current != null && current.isLeader();
		}

		@Override
		public Long token() {
			return this.token;
		}

		@Override
		public void close() throws Exception {
			this.initiator.destroy();
			this.engine.close();
		}

	}

	/**
	 * zklock's {@code LeaderElection}: the work asks {@code Term.isActive()} before every write and
	 * writes with that term's token.
	 */
	final class Election implements Leadership {

		private final LockEngine engine;

		private final LeaderElection election;

		private final String role;

		private final LeadershipListener listener;

		private volatile Candidacy candidacy;

		private volatile Term checked;

		Election(CuratorFramework client, String id, String role, Callbacks callbacks) {
			this.engine = new LockEngine(client, "/bench-locks");
			this.election = LeaderElection.builder(this.engine)
				.rootPath("/bench-leaders/zklock")
				.holder("benchmarks", id)
				.build();
			this.role = role;
			this.listener = new LeadershipListener() {

				@Override
				public void onGranted(Term term) {
					callbacks.granted(term.fencingToken());
				}

				@Override
				public void onRevoked(Term term, RevocationReason reason) {
					callbacks.revoked();
				}

			};
		}

		@Override
		public void join() {
			this.candidacy = this.election.join(this.role, this.listener);
		}

		@Override
		public void leave() {
			Candidacy current = this.candidacy;
			if (current != null) {
				current.leave();
			}
		}

		@Override
		public boolean mayWrite() {
			Candidacy current = this.candidacy;
			Term term = (current != null) ? current.currentTerm().orElse(null) : null;
			if (term != null && term.isActive()) {
				this.checked = term;
				return true;
			}
			return false;
		}

		@Override
		public Long token() {
			Term term = this.checked;
			return (term != null) ? term.fencingToken() : null;
		}

		@Override
		public void close() {
			this.election.close();
			this.engine.close();
		}

	}

}
