package io.zklock.fault.net;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import io.zklock.fixtures.BlackHoleProxy;

/**
 * A loopback TCP proxy on a ZooKeeper member's quorum link to the leader (the member's view names
 * this proxy as the leader's quorum address) that can make the member <em>lag</em>: while
 * {@link #hold() held}, the leader's proposals and commits (and every other packet but pings and
 * session revalidations) are kept back, in order, while the member's own packets reach the leader.
 * The member stays in the ensemble, answers pings, takes client sessions (the leader revalidates
 * them) and serves reads from a data tree that misses what the others committed meanwhile;
 * {@link #release()} hands it everything kept back, in order, and it catches up.
 *
 * <p>
 * The leader's side of the link is read as the quorum protocol's packets (jute
 * {@code QuorumPacket}: type, zxid, data, auth info). A snapshot sync streams a raw snapshot after
 * its {@code SNAP} packet; such a link is passed on as bytes and cannot be held. Thread-safe.
 */
public final class LaggingLink implements AutoCloseable {

	/** Quorum packet types (ZooKeeper's {@code Leader} constants) that pass while held. */
	private static final Set<Integer> PASSING = Set.of(5 /* PING */, 6 /* REVALIDATE */);

	private static final int SNAP = 15;

	private final ServerSocket listener;

	private final int leaderPort;

	private final List<Connection> connections = new CopyOnWriteArrayList<>();

	private final Object order = new Object();

	private boolean holding;

	/**
	 * Starts listening on a free loopback port.
	 * @param name names the proxy's threads
	 * @param leaderPort the quorum port of the member this link leads to
	 */
	public LaggingLink(String name, int leaderPort) {
		this.leaderPort = leaderPort;
		try {
			this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		Thread acceptor = new Thread(this::accept, "lagging-link-" + name);
		acceptor.setDaemon(true);
		acceptor.start();
	}

	/** The port to name in the member's view as the leader's quorum port. */
	public int port() {
		return this.listener.getLocalPort();
	}

	/** Whether a member is connected through this link now (it follows the leader behind it). */
	public boolean isConnected() {
		return !this.connections.isEmpty();
	}

	/**
	 * Starts keeping the leader's proposals and commits back.
	 * @throws IllegalStateException if the link was synced with a raw snapshot and cannot be read as packets
	 */
	public void hold() {
		synchronized (this.order) {
			for (Connection connection : this.connections) {
				if (connection.raw) {
					throw new IllegalStateException("The link was synced with a snapshot: its packets cannot be held");
				}
			}
			this.holding = true;
		}
	}

	/**
	 * Hands the member everything kept back, in order, and stops holding.
	 * @return how many packets were kept back
	 */
	public int release() {
		synchronized (this.order) {
			this.holding = false;
			int released = 0;
			for (Connection connection : this.connections) {
				released += connection.flushHeld();
			}
			return released;
		}
	}

	private void accept() {
		while (!this.listener.isClosed()) {
			try {
				Socket member = this.listener.accept();
				Socket leader;
				try {
					leader = new Socket(InetAddress.getLoopbackAddress(), this.leaderPort);
				}
				catch (IOException ex) {
					// the leader is down: refuse, as its port would
					BlackHoleProxy.closeQuietly(member);
					continue;
				}
				Connection connection = new Connection(member, leader);
				this.connections.add(connection);
				connection.start();
			}
			catch (IOException ex) {
				return;
			}
		}
	}

	@Override
	public void close() {
		BlackHoleProxy.closeQuietly(this.listener);
		this.connections.forEach(Connection::close);
	}

	/** One member-to-leader connection: raw bytes up, packets down. */
	private final class Connection {

		private final Socket member;

		private final Socket leader;

		private final List<byte[]> held = new ArrayList<>();

		private volatile boolean raw;

		private OutputStream toMember;

		Connection(Socket member, Socket leader) {
			this.member = member;
			this.leader = leader;
		}

		void start() throws IOException {
			this.toMember = this.member.getOutputStream();
			Thread up = new Thread(this::pumpUp, "lagging-link-up");
			up.setDaemon(true);
			up.start();
			Thread down = new Thread(this::pumpDown, "lagging-link-down");
			down.setDaemon(true);
			down.start();
		}

		private void pumpUp() {
			byte[] buffer = new byte[16 * 1024];
			try (InputStream in = this.member.getInputStream(); OutputStream out = this.leader.getOutputStream()) {
				int n;
				while ((n = in.read(buffer)) >= 0) {
					out.write(buffer, 0, n);
					out.flush();
				}
			}
			catch (IOException ex) {
				// a side went away
			}
			close();
		}

		private void pumpDown() {
			try (DataInputStream in = new DataInputStream(new BufferedInputStream(this.leader.getInputStream()))) {
				while (!this.raw) {
					Packet packet = Packet.read(in);
					synchronized (LaggingLink.this.order) {
						boolean keepBack = LaggingLink.this.holding && !PASSING.contains(packet.type());
						if (keepBack) {
							this.held.add(packet.bytes());
						}
						else {
							this.toMember.write(packet.bytes());
							this.toMember.flush();
						}
						this.raw = packet.type() == SNAP;
					}
				}
				in.transferTo(this.toMember);
			}
			catch (IOException ex) {
				// a side went away
			}
			close();
		}

		/** Writes what was kept back, in order; called with the order lock held. */
		int flushHeld() {
			int count = this.held.size();
			try {
				for (byte[] packet : this.held) {
					this.toMember.write(packet);
				}
				this.toMember.flush();
			}
			catch (IOException ex) {
				close();
			}
			this.held.clear();
			return count;
		}

		void close() {
			BlackHoleProxy.closeQuietly(this.member);
			BlackHoleProxy.closeQuietly(this.leader);
			LaggingLink.this.connections.remove(this);
		}

	}

	/** One quorum packet as the leader sent it: its type and its bytes, re-encoded as read. */
	private record Packet(int type, byte[] bytes) {

		static Packet read(DataInputStream in) throws IOException {
			ByteArrayOutputStream buffer = new ByteArrayOutputStream();
			DataOutputStream out = new DataOutputStream(buffer);
			int type = in.readInt();
			out.writeInt(type);
			out.writeLong(in.readLong());
			copyBuffer(in, out);
			int authEntries = in.readInt();
			out.writeInt(authEntries);
			for (int i = 0; i < authEntries; i++) {
				// an Id: scheme and id, each a length-prefixed string
				copyBuffer(in, out);
				copyBuffer(in, out);
			}
			return new Packet(type, buffer.toByteArray());
		}

		/** Copies a jute buffer or string: its length (-1 for null), then that many bytes. */
		private static void copyBuffer(DataInputStream in, DataOutputStream out) throws IOException {
			int length = in.readInt();
			out.writeInt(length);
			if (length > 0) {
				byte[] bytes = new byte[length];
				in.readFully(bytes);
				out.write(bytes);
			}
			else if (length < -1) {
				throw new EOFException("Not a quorum packet: length " + length);
			}
		}

	}

}
