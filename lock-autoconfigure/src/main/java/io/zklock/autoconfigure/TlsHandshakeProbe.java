package io.zklock.autoconfigure;

import java.net.InetSocketAddress;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertificateException;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.Future;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ClientX509Util;
import org.apache.zookeeper.common.NettyUtils;
import org.jspecify.annotations.Nullable;

/**
 * Tells why a TLS connection to a server failed at start-up, by doing what ZooKeeper's Netty client does for each
 * connection: the same {@code SslContext}, built by {@link ClientX509Util#createNettySslContextForClient} from the
 * client's own {@link ZKClientConfig}, for the host as written in the connect string, then one handshake. The
 * client's own logs are silenced while it connects ({@link ClientConnectLogs}), and without this a certificate
 * that names another host reads like a server that does not answer.
 */
final class TlsHandshakeProbe {

	private static final int TIMEOUT_MILLIS = 2000;

	private TlsHandshakeProbe() {
	}

	/**
	 * Shakes hands with one server.
	 * @param config the client's configuration (TLS on)
	 * @param server the server, host as written in the connect string
	 * @return a clause saying how the handshake went, such as {@code "the TLS handshake failed: the server's
	 * certificate does not match the host '127.0.0.1' (...)"}
	 */
	static String describe(ZKClientConfig config, ConnectString.Server server) {
		SslContext context;
		try (ClientX509Util x509 = new ClientX509Util()) {
			context = x509.createNettySslContextForClient(config);
		}
		catch (Exception ex) {
			return "the client's TLS material cannot be loaded (" + ex.getMessage() + ")";
		}
		EventLoopGroup group = NettyUtils.newNioOrEpollEventLoopGroup(1);
		try {
			Bootstrap bootstrap = new Bootstrap().group(group)
				.channel(NettyUtils.nioOrEpollSocketChannel())
				.option(ChannelOption.CONNECT_TIMEOUT_MILLIS, TIMEOUT_MILLIS)
				.handler(new ChannelInitializer<SocketChannel>() {
					@Override
					protected void initChannel(SocketChannel channel) {
						channel.pipeline().addLast(context.newHandler(channel.alloc(), server.host(), server.port()));
					}
				});
			ChannelFuture connect = bootstrap.connect(new InetSocketAddress(server.host(), server.port()));
			if (!connect.awaitUninterruptibly(TIMEOUT_MILLIS) || !connect.isSuccess()) {
				return "no TCP connection for a TLS handshake";
			}
			try {
				Future<?> handshake = connect.channel().pipeline().get(SslHandler.class).handshakeFuture();
				if (!handshake.awaitUninterruptibly(TIMEOUT_MILLIS)) {
					return "no TLS handshake within " + TIMEOUT_MILLIS + " ms";
				}
				return handshake.isSuccess() ? "completes the TLS handshake"
						: "the TLS handshake failed: " + reason(handshake.cause(), server, config);
			}
			finally {
				connect.channel().close().awaitUninterruptibly(TIMEOUT_MILLIS);
			}
		}
		finally {
			group.shutdownGracefully(0, TIMEOUT_MILLIS, TimeUnit.MILLISECONDS).awaitUninterruptibly(TIMEOUT_MILLIS);
		}
	}

	private static String reason(Throwable failure, ConnectString.Server server, ZKClientConfig config) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			String message = String.valueOf(cause.getMessage());
			String lower = message.toLowerCase(Locale.ROOT);
			if (lower.contains("subject alternative name") || lower.contains("verify host")
					|| lower.contains("no name matching")) {
				return "the server's certificate does not match the host '" + server.host() + "' ("
						+ hostMismatchDetail(cause) + ")" + (reverseLookupAllowed(config) ? ""
								: "; ZooKeeper does not look the address up in reverse DNS");
			}
			if (cause instanceof CertPathBuilderException || lower.contains("pkix path")
					|| lower.contains("unable to find valid certification path")) {
				return "the client does not trust the server's certificate (" + message + ")";
			}
			if (lower.contains("received fatal alert")) {
				return "the server refused the handshake (" + message
						+ "): does it trust the client's certificate, and does the client have one?";
			}
		}
		Throwable root = failure;
		while (root.getCause() != null) {
			root = root.getCause();
		}
		return root.getClass().getSimpleName() + ": " + root.getMessage();
	}

	/** The innermost message of a host mismatch: ZooKeeper's verifier names the host and the certificate's names. */
	private static @Nullable String hostMismatchDetail(Throwable mismatch) {
		String detail = mismatch.getMessage();
		for (Throwable cause = mismatch.getCause(); cause != null; cause = cause.getCause()) {
			if (!(cause instanceof CertificateException) && cause.getMessage() != null) {
				detail = cause.getMessage();
			}
		}
		return detail;
	}

	private static boolean reverseLookupAllowed(ZKClientConfig config) {
		try (ClientX509Util x509 = new ClientX509Util()) {
			return x509.allowReverseDnsLookup(config);
		}
	}

}
