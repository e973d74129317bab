package io.zklock.benchmarks.peers;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.Lease;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.lock.LockResponse;
import io.etcd.jetcd.support.CloseableClient;
import io.grpc.stub.StreamObserver;

/**
 * etcd's lock service (the {@code Lock} and {@code Unlock} RPCs of {@code v3lockpb}, which run
 * etcd's own mutex recipe on the server) through jetcd, as etcd's {@code concurrency} package
 * uses it: one {@link Client} (one gRPC connection) per process, and one session per locking
 * thread, a lease of its own kept alive in the background (60 s, the Go package's default TTL),
 * since a lock belongs to a lease and two threads on one lease would hold it together. The
 * fencing token is the revision at which the lock was granted (the response header's).
 */
final class EtcdLocks extends GrantingClient {

	/** The TTL of a session's lease unless the pause test asks for another: the Go package's. */
	private static final Duration DEFAULT_TTL = Duration.ofSeconds(60);

	private final Client client;

	private final Duration ttl;

	private final List<Session> sessions = new CopyOnWriteArrayList<>();

	private final ThreadLocal<Session> session = ThreadLocal.withInitial(this::newSession);

	EtcdLocks(String endpoint, String root, Duration lease) {
		super(root);
		this.client = Client.builder().endpoints(endpoint).build();
		this.ttl = (lease != null) ? lease : DEFAULT_TTL;
	}

	private Session newSession() {
		try {
			Lease leases = this.client.getLeaseClient();
			long id = leases.grant(this.ttl.toSeconds()).get(30, TimeUnit.SECONDS).getID();
			Session session = new Session(id);
			session.keepAlive = leases.keepAlive(id, session);
			this.sessions.add(session);
			return session;
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not grant an etcd lease", ex);
		}
	}

	@Override
	Grant grant(String name) throws Exception {
		Session session = this.session.get();
		LockResponse response = this.client.getLockClient().lock(bytes(name), session.id).get();
		return grant(session, response);
	}

	@Override
	Grant grant(String name, Duration wait) throws Exception {
		Session session = this.session.get();
		try {
			return grant(session,
					this.client.getLockClient().lock(bytes(name), session.id).get(wait.toNanos(), TimeUnit.NANOSECONDS));
		}
		catch (TimeoutException ex) {
			return null;
		}
	}

	private Grant grant(Session session, LockResponse response) {
		ByteSequence key = response.getKey();
		long revision = response.getHeader().getRevision();
		return new Grant() {

			@Override
			public OptionalLong token() {
				return OptionalLong.of(revision);
			}

			@Override
			public boolean believesHeld() {
				// the session's keep-alive stream has not ended: what Go's Session.Done() reports
				return session.alive;
			}

			@Override
			public void release() throws Exception {
				EtcdLocks.this.client.getLockClient().unlock(key).get();
			}

		};
	}

	private static ByteSequence bytes(String text) {
		return ByteSequence.from(text, StandardCharsets.UTF_8);
	}

	@Override
	public void close() {
		for (Session session : this.sessions) {
			session.keepAlive.close();
			try {
				this.client.getLeaseClient().revoke(session.id).get(5, TimeUnit.SECONDS);
			}
			catch (Exception ex) {
				// the lease expires by itself
			}
		}
		this.client.close();
	}

	/** A lease kept alive, and whether its keep-alive stream still runs. */
	private static final class Session implements StreamObserver<LeaseKeepAliveResponse> {

		final long id;

		volatile CloseableClient keepAlive;

		volatile boolean alive = true;

		Session(long id) {
			this.id = id;
		}

		@Override
		public void onNext(LeaseKeepAliveResponse response) {
			if (response.getTTL() <= 0) {
				this.alive = false;
			}
		}

		@Override
		public void onError(Throwable error) {
			this.alive = false;
		}

		@Override
		public void onCompleted() {
			this.alive = false;
		}

	}

}
