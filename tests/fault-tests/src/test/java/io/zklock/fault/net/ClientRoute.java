package io.zklock.fault.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import io.zklock.fixtures.BlackHoleProxy;

/**
 * A loopback TCP proxy that routes one ZooKeeper client to one member of the ensemble, the member
 * it names at the time the client connects, and can lose a reply the way a network does:
 * {@link #loseNextReply(int)} lets the client's next request through, then drops the first reply
 * that comes back and closes the connection, so that the member has applied the request but the
 * client never saw its reply (nor its zxid); the client's next connection goes to another member.
 * Pings and their replies are not counted as requests or replies. Thread-safe.
 */
public final class ClientRoute implements AutoCloseable {

	/** The xid of ZooKeeper's pings, at offset 4 of a ping request and of its reply. */
	private static final int PING_XID = -2;

	private final ServerSocket listener;

	private final List<Socket> sockets = new CopyOnWriteArrayList<>();

	private volatile int memberPort;

	private volatile Cut cut;

	/**
	 * Starts listening on a free loopback port.
	 * @param memberPort the client port of the member to route to first
	 */
	public ClientRoute(int memberPort) {
		this.memberPort = memberPort;
		try {
			this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		Thread acceptor = new Thread(this::accept, "client-route-" + port());
		acceptor.setDaemon(true);
		acceptor.start();
	}

	/** The connect string to give the client. */
	public String connectString() {
		return "127.0.0.1:" + port();
	}

	private int port() {
		return this.listener.getLocalPort();
	}

	/**
	 * Loses the reply to the client's next request, closes the connection there, and routes the
	 * client's next connection to {@code nextMemberPort}.
	 * @return completes once the reply was lost
	 */
	public CompletableFuture<Void> loseNextReply(int nextMemberPort) {
		Cut next = new Cut(nextMemberPort);
		this.cut = next;
		return next.done;
	}

	private void accept() {
		while (!this.listener.isClosed()) {
			try {
				Socket client = this.listener.accept();
				Socket member;
				try {
					member = new Socket(InetAddress.getLoopbackAddress(), this.memberPort);
				}
				catch (IOException ex) {
					BlackHoleProxy.closeQuietly(client);
					continue;
				}
				this.sockets.add(client);
				this.sockets.add(member);
				start(client, member, true);
				start(member, client, false);
			}
			catch (IOException ex) {
				return;
			}
		}
	}

	private void start(Socket from, Socket to, boolean requests) {
		Thread pump = new Thread(() -> pump(from, to, requests), "client-route-" + (requests ? "up" : "down"));
		pump.setDaemon(true);
		pump.start();
	}

	private void pump(Socket from, Socket to, boolean requests) {
		byte[] buffer = new byte[16 * 1024];
		Cut lost = null;
		try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
			int n;
			while ((n = in.read(buffer)) >= 0) {
				Cut armed = this.cut;
				if (armed != null && !isPing(buffer, n)) {
					if (requests) {
						armed.requestSent = true;
					}
					else if (armed.requestSent) {
						// the reply is lost with the connection; the client reconnects elsewhere
						this.memberPort = armed.nextMemberPort;
						this.cut = null;
						lost = armed;
						break;
					}
				}
				out.write(buffer, 0, n);
				out.flush();
			}
		}
		catch (IOException ex) {
			// a side went away
		}
		BlackHoleProxy.closeQuietly(from);
		BlackHoleProxy.closeQuietly(to);
		if (lost != null) {
			lost.done.complete(null);
		}
	}

	private static boolean isPing(byte[] buffer, int length) {
		return length >= 8 && length <= 20 && ByteBuffer.wrap(buffer, 4, 4).getInt() == PING_XID;
	}

	@Override
	public void close() {
		BlackHoleProxy.closeQuietly(this.listener);
		this.sockets.forEach(BlackHoleProxy::closeQuietly);
	}

	/** A reply to lose: armed until the client's next request's reply comes back. */
	private static final class Cut {

		final int nextMemberPort;

		final CompletableFuture<Void> done = new CompletableFuture<>();

		volatile boolean requestSent;

		Cut(int nextMemberPort) {
			this.nextMemberPort = nextMemberPort;
		}

	}

}
