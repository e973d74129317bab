package io.zklock.benchmarks.peers;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.state.ConnectionState;

import io.zklock.benchmarks.client.ZkClient;
import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.LockEngine;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;

/**
 * The libraries of the pause test, each opened with the test's lease: zklock and Curator on
 * ZooKeeper (the lease is the session timeout), and the peers.
 */
final class Holders {

	/** zklock's id on a holder's command line. */
	static final String ZKLOCK = "zklock";

	/** Curator's id on a holder's command line. */
	static final String CURATOR = "curator";

	private Holders() {
	}

	/**
	 * Opens a client of a library with the given lease.
	 * @param id {@value #ZKLOCK}, {@value #CURATOR} or a {@link Peer#id()}
	 * @param address the connect string, address, endpoint or member list
	 * @param root the prefix of lock names
	 * @param lease the lease (a ZooKeeper session timeout, a watchdog timeout, a lease TTL)
	 * @return the client
	 * @throws Exception if it cannot connect
	 */
	static GrantingClient open(String id, String address, String root, Duration lease) throws Exception {
		return switch (id) {
			case ZKLOCK -> new ZklockHolder(ZkClient.connect(address, (int) lease.toMillis()), root);
			case CURATOR -> new CuratorHolder(ZkClient.connect(address, (int) lease.toMillis()), root);
			default -> Peer.ofId(id).open(address, root, lease);
		};
	}

	/**
	 * zklock with its defaults: the handle's fencing token; the handle stops being held as
	 * soon as the client notices a suspended connection or a lost session.
	 */
	private static final class ZklockHolder extends GrantingClient {

		private final ZkClient session;

		private final LockEngine engine;

		private final ExclusiveLockByCurator locks;

		ZklockHolder(ZkClient session, String root) {
			super("");
			this.session = session;
			this.engine = new LockEngine(session.curator(), root + "/" + ZKLOCK);
			this.locks = new ExclusiveLockByCurator(this.engine);
		}

		@Override
		Grant grant(String name) {
			return grant(this.locks.acquire(name.substring(1), LockMode.EXCLUSIVE));
		}

		@Override
		Grant grant(String name, Duration wait) {
			return this.locks.tryAcquire(name.substring(1), LockMode.EXCLUSIVE, wait).map(ZklockHolder::grant).orElse(null);
		}

		private static Grant grant(LockHandle handle) {
			return new Grant() {

				@Override
				public OptionalLong token() {
					return OptionalLong.of(handle.fencingToken());
				}

				@Override
				public boolean believesHeld() {
					return handle.isHeld();
				}

				@Override
				public void release() {
					handle.release();
				}

			};
		}

		@Override
		public void close() {
			this.engine.close();
			this.session.close();
		}

	}

	/**
	 * Curator's {@code InterProcessMutex} as its documentation says to hold it: no token; the
	 * holder treats a SUSPENDED or LOST connection state as the lock gone (a
	 * {@code ConnectionStateListener}, Curator's advice for locks).
	 */
	private static final class CuratorHolder extends GrantingClient {

		private final ZkClient session;

		private final String root;

		private volatile boolean connectionTrouble;

		CuratorHolder(ZkClient session, String root) {
			super("");
			this.session = session;
			this.root = root + "/" + CURATOR;
			session.curator().getConnectionStateListenable().addListener((client, state) -> {
				if (state == ConnectionState.SUSPENDED || state == ConnectionState.LOST) {
					this.connectionTrouble = true;
				}
			});
		}

		@Override
		Grant grant(String name) throws Exception {
			InterProcessMutex mutex = new InterProcessMutex(this.session.curator(), this.root + name);
			mutex.acquire();
			return grant(mutex);
		}

		@Override
		Grant grant(String name, Duration wait) throws Exception {
			InterProcessMutex mutex = new InterProcessMutex(this.session.curator(), this.root + name);
			return mutex.acquire(wait.toNanos(), TimeUnit.NANOSECONDS) ? grant(mutex) : null;
		}

		private Grant grant(InterProcessMutex mutex) {
			this.connectionTrouble = false;
			return new Grant() {

				@Override
				public OptionalLong token() {
					return OptionalLong.empty();
				}

				@Override
				public boolean believesHeld() {
					return mutex.isOwnedByCurrentThread() && !CuratorHolder.this.connectionTrouble;
				}

				@Override
				public void release() throws Exception {
					mutex.release();
				}

			};
		}

		@Override
		public void close() {
			this.session.close();
		}

	}

}
