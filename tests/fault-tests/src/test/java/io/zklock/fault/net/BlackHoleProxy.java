package io.zklock.fault.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * A loopback TCP proxy between one client and every member of the ensemble: one listening
 * port per member, so the client's connect string names only the proxy. While
 * {@link #blackHole() black-holed}, bytes in both directions are dropped and sockets are kept
 * open, including closes (neither side learns anything, as in a real partition); new
 * connections are accepted and never connected onwards. {@link #heal()} closes every connection
 * that lost bytes (its stream is broken) and forwards again.
 *
 * <p>
 * Thread-safe.
 */
public final class BlackHoleProxy implements AutoCloseable {

	private final String name;

	private final List<ServerSocket> listeners = new ArrayList<>();

	private final List<ProxyLink> links = new CopyOnWriteArrayList<>();

	private volatile boolean blackHoled;

	/**
	 * Starts listening, one free loopback port per target.
	 * @param name names the proxy's threads, such as the client's process id
	 * @param targetPorts the loopback client ports of the ensemble's members
	 */
	public BlackHoleProxy(String name, List<Integer> targetPorts) {
		this.name = name;
		try {
			for (int target : targetPorts) {
				ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
				this.listeners.add(listener);
				Thread acceptor = new Thread(() -> accept(listener, target), "proxy-" + name + "-" + target);
				acceptor.setDaemon(true);
				acceptor.start();
			}
		}
		catch (IOException ex) {
			close();
			throw new UncheckedIOException(ex);
		}
	}

	/** The connect string to give the client: every member, through this proxy. */
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
		for (ProxyLink link : this.links) {
			if (link.isPoisoned()) {
				link.close();
			}
		}
	}

	boolean isBlackHoled() {
		return this.blackHoled;
	}

	private void accept(ServerSocket listener, int target) {
		while (!listener.isClosed()) {
			Socket client;
			try {
				client = listener.accept();
			}
			catch (IOException ex) {
				return;
			}
			Socket upstream = null;
			if (!this.blackHoled) {
				try {
					upstream = new Socket(InetAddress.getLoopbackAddress(), target);
				}
				catch (IOException ex) {
					// the member is down: refuse, as the member itself would
					closeQuietly(client);
					continue;
				}
			}
			ProxyLink link = new ProxyLink(this, client, upstream, this.links::remove);
			this.links.add(link);
			link.start(this.name + "-" + target);
		}
	}

	@Override
	public void close() {
		for (ServerSocket listener : this.listeners) {
			closeQuietly(listener);
		}
		for (ProxyLink link : this.links) {
			link.close();
		}
	}

	static void closeQuietly(AutoCloseable closeable) {
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

}
