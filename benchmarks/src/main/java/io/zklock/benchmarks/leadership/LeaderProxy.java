package io.zklock.benchmarks.leadership;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * One leader process's way to the ZooKeeper members, on loopback: a listening port per member,
 * each connection pumped to that member. {@link #blackHole()} drops every byte both ways while
 * keeping the sockets open (a partition: the client notices only by its own read timeout);
 * {@link #heal()} forwards again and closes the connections that lost bytes; {@link #reset()}
 * closes every connection at once (a connection loss the client notices at once, its session
 * kept). Thread-safe.
 */
public final class LeaderProxy implements AutoCloseable {

	private final List<ServerSocket> listeners = new ArrayList<>();

	private final List<Link> links = new CopyOnWriteArrayList<>();

	private volatile boolean blackHoled;

	/**
	 * Starts listening, one free loopback port per member.
	 * @param name names the threads
	 * @param memberPorts the members' loopback client ports
	 */
	public LeaderProxy(String name, List<Integer> memberPorts) {
		try {
			for (int port : memberPorts) {
				ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
				this.listeners.add(listener);
				Thread acceptor = new Thread(() -> accept(listener, port), "leader-proxy-" + name + "-" + port);
				acceptor.setDaemon(true);
				acceptor.start();
			}
		}
		catch (IOException ex) {
			close();
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * The connect string to give the client: every member, through this proxy.
	 * @return such as {@code 127.0.0.1:40001,127.0.0.1:40002}
	 */
	public String connectString() {
		return this.listeners.stream()
			.map((listener) -> "127.0.0.1:" + listener.getLocalPort())
			.collect(Collectors.joining(","));
	}

	/** Starts dropping every byte, both ways. */
	public void blackHole() {
		this.blackHoled = true;
	}

	/** Forwards again; connections that lost bytes are closed. */
	public void heal() {
		this.blackHoled = false;
		for (Link link : this.links) {
			if (link.poisoned) {
				link.close();
			}
		}
	}

	/** Closes every connection now; new ones are forwarded. */
	public void reset() {
		for (Link link : this.links) {
			link.close();
		}
	}

	private void accept(ServerSocket listener, int port) {
		while (!listener.isClosed()) {
			Socket client;
			try {
				client = listener.accept();
			}
			catch (IOException ex) {
				return;
			}
			if (this.blackHoled) {
				// in a partition nothing gets through, a new connection neither
				Link link = new Link(client, null);
				link.poisoned = true;
				this.links.add(link);
				link.pump(client, null);
				continue;
			}
			try {
				Socket upstream = new Socket(InetAddress.getLoopbackAddress(), port);
				upstream.setTcpNoDelay(true);
				client.setTcpNoDelay(true);
				Link link = new Link(client, upstream);
				this.links.add(link);
				link.pump(client, upstream);
				link.pump(upstream, client);
			}
			catch (IOException ex) {
				// the member is down: refuse, as the member itself would
				closeQuietly(client);
			}
		}
	}

	@Override
	public void close() {
		for (ServerSocket listener : this.listeners) {
			closeQuietly(listener);
		}
		for (Link link : this.links) {
			link.close();
		}
	}

	private static void closeQuietly(AutoCloseable closeable) {
		if (closeable == null) {
			return;
		}
		try {
			closeable.close();
		}
		catch (Exception ex) {
			// closing anyway
		}
	}

	/** One client connection and its member's. */
	private final class Link {

		private final Socket client;

		private final Socket upstream;

		private volatile boolean poisoned;

		private boolean closed;

		Link(Socket client, Socket upstream) {
			this.client = client;
			this.upstream = upstream;
		}

		void pump(Socket from, Socket to) {
			Thread pump = new Thread(() -> {
				byte[] buffer = new byte[16 * 1024];
				try {
					InputStream in = from.getInputStream();
					OutputStream out = (to != null) ? to.getOutputStream() : null;
					int n;
					while ((n = in.read(buffer)) >= 0) {
						if (LeaderProxy.this.blackHoled || out == null) {
							this.poisoned = true;
							continue;
						}
						if (this.poisoned) {
							close();
							return;
						}
						out.write(buffer, 0, n);
						out.flush();
					}
				}
				catch (IOException ex) {
					// a side went away
				}
				if (LeaderProxy.this.blackHoled) {
					// in a partition the close does not get through either: heal() closes the link
					this.poisoned = true;
					return;
				}
				close();
			}, "leader-proxy-pump");
			pump.setDaemon(true);
			pump.start();
		}

		synchronized void close() {
			if (this.closed) {
				return;
			}
			this.closed = true;
			closeQuietly(this.client);
			closeQuietly(this.upstream);
			LeaderProxy.this.links.remove(this);
		}

	}

}
