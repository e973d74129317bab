package io.zklock.internal;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.common.PathUtils;
import org.jspecify.annotations.Nullable;

/**
 * Validates lock paths and lock roots: pure functions, no ZooKeeper call.
 *
 * <p>
 * A lock path is a {@code '/'}-separated name relative to the lock root, for example
 * {@code "orders/42"}; one leading {@code '/'} is tolerated. Each segment must be non-empty,
 * must not be {@code "."} or {@code ".."}, and may only hold characters ZooKeeper accepts
 * in node names (see {@link PathUtils#validatePath(String)}).
 */
public final class LockPaths {

	private LockPaths() {
	}

	/**
	 * Checks a lock root such as {@code "/locks"}.
	 * @param rootPath the lock root, absolute, inside the client's namespace
	 * @param namespaced whether the client has a namespace (without one, the reserved
	 * {@code /zookeeper} subtree is refused)
	 * @return the root path, unchanged
	 * @throws IllegalArgumentException naming the bad value and the rule it breaks
	 */
	public static String validateRoot(@Nullable String rootPath, boolean namespaced) {
		if (rootPath == null || rootPath.isBlank()) {
			throw new IllegalArgumentException(
					"Lock root '" + rootPath + "' is invalid: it must be an absolute ZooKeeper path such as '/locks'");
		}
		if (!rootPath.startsWith("/")) {
			throw new IllegalArgumentException("Lock root '" + rootPath
					+ "' is invalid: it must start with '/', for example '/" + rootPath + "'");
		}
		if (rootPath.length() > 1 && rootPath.endsWith("/")) {
			throw new IllegalArgumentException("Lock root '" + rootPath + "' is invalid: it must not end with '/'");
		}
		try {
			PathUtils.validatePath(rootPath);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("Lock root '" + rootPath + "' is invalid: " + ex.getMessage(), ex);
		}
		if (!namespaced && isReserved(rootPath)) {
			throw new IllegalArgumentException("Lock root '" + rootPath
					+ "' is invalid: '/zookeeper' is reserved by ZooKeeper; choose another root such as '/locks'");
		}
		return rootPath;
	}

	/**
	 * Checks a lock path and returns it without a leading {@code '/'}.
	 * @param lockPath the lock path, for example {@code "orders/42"}
	 * @return the normalized lock path
	 * @throws IllegalArgumentException naming the bad value and the rule it breaks
	 */
	public static String normalize(@Nullable String lockPath) {
		return normalize(lockPath, null);
	}

	/**
	 * Checks a lock path and returns it without a leading {@code '/'}.
	 * @param lockPath the lock path, for example {@code "orders/42"}
	 * @param rootPath the lock root, only named in the error message; {@code null} for none
	 * @return the normalized lock path
	 * @throws IllegalArgumentException naming the bad value and the rule it breaks
	 */
	public static String normalize(@Nullable String lockPath, @Nullable String rootPath) {
		if (lockPath == null) {
			throw invalid(null, rootPath, "it is null");
		}
		if (lockPath.isBlank()) {
			throw invalid(lockPath, rootPath, "it is blank");
		}
		String relative = lockPath.startsWith("/") ? lockPath.substring(1) : lockPath;
		// each segment between slashes (a scan, not a split: this runs at every acquire)
		int start = 0;
		while (start <= relative.length()) {
			int end = relative.indexOf('/', start);
			if (end < 0) {
				end = relative.length();
			}
			int length = end - start;
			if (length == 0) {
				throw invalid(lockPath, rootPath, "empty segment");
			}
			if (relative.charAt(start) == '.' && (length == 1 || (length == 2 && relative.charAt(start + 1) == '.'))) {
				throw invalid(lockPath, rootPath, "segment '" + relative.substring(start, end) + "' is not allowed");
			}
			start = end + 1;
		}
		try {
			PathUtils.validatePath("/" + relative);
		}
		catch (IllegalArgumentException ex) {
			throw invalid(lockPath, rootPath, String.valueOf(ex.getMessage()));
		}
		return relative;
	}

	/**
	 * Checks a lock path and returns the ZooKeeper path of its lock nodes' parent.
	 * @param lockPath the lock path, for example {@code "orders/42"}
	 * @param rootPath an already validated lock root, for example {@code "/locks"}
	 * @param namespaced whether the client has a namespace (without one, the reserved
	 * {@code /zookeeper} subtree is refused)
	 * @return the ZooKeeper path, for example {@code "/locks/orders/42"}
	 * @throws IllegalArgumentException naming the bad value and the rule it breaks
	 */
	public static String toZooKeeperPath(@Nullable String lockPath, String rootPath, boolean namespaced) {
		String relative = normalize(lockPath, rootPath);
		String full = ZKPaths.makePath(rootPath, relative);
		if (!namespaced && isReserved(full)) {
			throw invalid(lockPath, rootPath, "it falls under '/zookeeper', which ZooKeeper reserves");
		}
		return full;
	}

	/**
	 * Encodes a value, such as a key of {@code @DistributedLock}, as one lock-path segment,
	 * reversibly: {@code '%'} becomes {@code "%25"} and {@code '/'} {@code "%2F"}, so that
	 * {@code "a/b"} locks one segment {@code "a%2Fb"} instead of two; a segment that would be
	 * {@code "."} or {@code ".."} has its dots encoded as {@code "%2E"}.
	 * @param value the value
	 * @return the segment; {@link #decodeSegment(String)} gives the value back
	 */
	public static String encodeSegment(String value) {
		if (value.equals(".") || value.equals("..")) {
			return value.replace(".", "%2E");
		}
		if (value.indexOf('%') < 0 && value.indexOf('/') < 0) {
			return value;
		}
		return value.replace("%", "%25").replace("/", "%2F");
	}

	/**
	 * Decodes a segment made by {@link #encodeSegment(String)}.
	 * @param segment the segment
	 * @return the value it encodes; a segment without {@code '%'} is returned as is
	 */
	public static String decodeSegment(String segment) {
		if (segment.indexOf('%') < 0) {
			return segment;
		}
		StringBuilder value = new StringBuilder(segment.length());
		for (int i = 0; i < segment.length(); i++) {
			char c = segment.charAt(i);
			String escape = (c == '%' && i + 3 <= segment.length()) ? segment.substring(i, i + 3) : "";
			switch (escape) {
				case "%25" -> value.append('%');
				case "%2F" -> value.append('/');
				case "%2E" -> value.append('.');
				default -> {
					value.append(c);
					continue;
				}
			}
			i += 2;
		}
		return value.toString();
	}

	/**
	 * Whether a client works inside a namespace (chroot), which keeps it off ZooKeeper's
	 * reserved {@code /zookeeper} subtree.
	 * @param client the client
	 * @return {@code true} if its namespace is set and not empty
	 */
	public static boolean isNamespaced(CuratorFramework client) {
		String namespace = client.getNamespace();
		return namespace != null && !namespace.isEmpty();
	}

	private static boolean isReserved(String path) {
		return path.equals("/zookeeper") || path.startsWith("/zookeeper/");
	}

	/**
	 * A value as it can be printed in a message: control characters (a NUL, a tab, a line break,
	 * U+007F to U+009F) are written as Java escapes ({@code \u0000}, {@code \t}, {@code \n}), so
	 * that a lock path with one reads as written ({@code 'a\u0000b'}, not {@code 'ab'}).
	 * {@code null} stays {@code "null"}.
	 * @param value the value
	 * @return the printable value
	 */
	public static String escape(@Nullable String value) {
		if (value == null) {
			return "null";
		}
		StringBuilder printable = null;
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			String escaped = switch (c) {
				case '\t' -> "\\t";
				case '\n' -> "\\n";
				case '\r' -> "\\r";
				default -> Character.isISOControl(c) ? String.format("\\u%04x", (int) c) : null;
			};
			if (escaped != null && printable == null) {
				printable = new StringBuilder(value.length() + 8).append(value, 0, i);
			}
			if (printable != null) {
				if (escaped != null) {
					printable.append(escaped);
				}
				else {
					printable.append(c);
				}
			}
		}
		return (printable != null) ? printable.toString() : value;
	}

	/**
	 * The exception for an invalid lock path: it names the path as written (escaped), the rule it
	 * breaks, and the fix.
	 * @param lockPath the lock path as given, may be {@code null}
	 * @param rootPath the lock root it is relative to, or {@code null} if none is known
	 * @param rule the rule the path breaks, such as {@code "empty segment"}
	 * @return the exception, to throw
	 */
	public static IllegalArgumentException invalid(@Nullable String lockPath, @Nullable String rootPath, String rule) {
		return new IllegalArgumentException("Lock path '" + escape(lockPath) + "' is invalid: " + escape(rule)
				+ ((rootPath != null) ? " (lock root " + rootPath + ")" : "")
				+ "; use '/'-separated non-empty names such as 'orders/42'");
	}

}
