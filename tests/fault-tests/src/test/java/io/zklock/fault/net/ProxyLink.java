package io.zklock.fault.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.function.Consumer;

/**
 * One client connection through a {@link BlackHoleProxy}: two pumps, client to member and
 * member to client. A link that dropped bytes, or saw a close while black-holed, is poisoned:
 * it stays open until the proxy heals, then is closed.
 */
final class ProxyLink {

	private final BlackHoleProxy proxy;

	private final Socket client;

	private final Socket upstream;

	private final Consumer<ProxyLink> onClose;

	private volatile boolean poisoned;

	private volatile boolean closed;

	ProxyLink(BlackHoleProxy proxy, Socket client, Socket upstream, Consumer<ProxyLink> onClose) {
		this.proxy = proxy;
		this.client = client;
		this.upstream = upstream;
		this.onClose = onClose;
		this.poisoned = upstream == null;
	}

	void start(String name) {
		startPump(this.client, this.upstream, name + "-up");
		if (this.upstream != null) {
			startPump(this.upstream, this.client, name + "-down");
		}
	}

	boolean isPoisoned() {
		return this.poisoned;
	}

	private void startPump(Socket from, Socket to, String name) {
		Thread pump = new Thread(() -> pump(from, to), "proxy-" + name);
		pump.setDaemon(true);
		pump.start();
	}

	private void pump(Socket from, Socket to) {
		byte[] buffer = new byte[16 * 1024];
		try {
			InputStream in = from.getInputStream();
			OutputStream out = (to != null) ? to.getOutputStream() : null;
			int n;
			while ((n = in.read(buffer)) >= 0) {
				if (this.proxy.isBlackHoled()) {
					poison();
					continue;
				}
				if (this.poisoned || out == null) {
					// healed, but this stream lost bytes: it cannot be used again
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
		if (this.proxy.isBlackHoled()) {
			// in a partition the close does not get through either: heal() closes the link
			poison();
			return;
		}
		close();
	}

	/**
	 * Marks the link broken. If the proxy healed meanwhile, closes it here, since heal() may
	 * have passed this link already.
	 */
	private void poison() {
		this.poisoned = true;
		if (!this.proxy.isBlackHoled()) {
			close();
		}
	}

	synchronized void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		BlackHoleProxy.closeQuietly(this.client);
		BlackHoleProxy.closeQuietly(this.upstream);
		this.onClose.accept(this);
	}

}
