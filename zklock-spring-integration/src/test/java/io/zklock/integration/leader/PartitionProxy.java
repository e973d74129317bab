package io.zklock.integration.leader;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback TCP proxy in front of one ZooKeeper server, for one client. {@link #cut()} drops
 * every byte both ways and keeps the sockets open, as a real partition does (neither side
 * learns anything until its own timeouts fire); {@link #heal()} closes the connections that lost
 * bytes and forwards again. The fault suite's {@code BlackHoleProxy} does the same for a whole
 * ensemble; this one serves a single server.
 */
final class PartitionProxy implements AutoCloseable {

	private final ServerSocket listener;

	private final int target;

	private final List<Socket[]> pairs = new CopyOnWriteArrayList<>();

	private volatile boolean cut;

	PartitionProxy(int targetPort) throws IOException {
		this.target = targetPort;
		this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread acceptor = new Thread(this::accept, "partition-proxy-" + targetPort);
		acceptor.setDaemon(true);
		acceptor.start();
	}

	String connectString() {
		return "127.0.0.1:" + this.listener.getLocalPort();
	}

	void cut() {
		this.cut = true;
	}

	void heal() {
		this.cut = false;
		for (Socket[] pair : this.pairs) {
			closeQuietly(pair[0]);
			closeQuietly(pair[1]);
		}
		this.pairs.clear();
	}

	private void accept() {
		while (!this.listener.isClosed()) {
			try {
				Socket client = this.listener.accept();
				if (this.cut) {
					// a partitioned server never answers: keep the socket, say nothing
					this.pairs.add(new Socket[] { client, client });
					continue;
				}
				Socket server = new Socket(InetAddress.getLoopbackAddress(), this.target);
				Socket[] pair = { client, server };
				this.pairs.add(pair);
				pump(client, server);
				pump(server, client);
			}
			catch (IOException ex) {
				// listener closed, or the server is down: the client retries
			}
		}
	}

	private void pump(Socket from, Socket to) {
		Thread thread = new Thread(() -> {
			byte[] buffer = new byte[8192];
			try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
				int read;
				while ((read = in.read(buffer)) >= 0) {
					if (!this.cut) {
						out.write(buffer, 0, read);
						out.flush();
					}
				}
			}
			catch (IOException ex) {
				// a side closed
			}
			if (!this.cut) {
				closeQuietly(from);
				closeQuietly(to);
			}
		}, "partition-proxy-pump");
		thread.setDaemon(true);
		thread.start();
	}

	@Override
	public void close() {
		closeQuietly(this.listener);
		heal();
	}

	private static void closeQuietly(AutoCloseable closeable) {
		try {
			closeable.close();
		}
		catch (Exception ex) {
			// closing anyway
		}
	}

}
