package io.zklock.internal;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * What a lock node's data says of its holder, so that a waiter that times out, and an operator
 * who reads the lock path, can tell who holds the lock. zklock's lock nodes carry one line of
 * UTF-8: {@code zklock host=web-2 pid=4711 app=billing instance=b-1} (the application and instance
 * only when given), about 30 to 80 bytes per lock node, sent once with the node's create and kept
 * by the server with the node; a listing of the lock path carries names only, so a long queue
 * costs no more to list. Curator's recipes never read a lock node's data (their own nodes carry the
 * client's IP address as text), so zklock and Curator peers stay wire-compatible whatever it says.
 * Thread-safe (stateless).
 */
public final class LockNodeData {

	private static final String PREFIX = "zklock ";

	private static final int SHOWN = 100;

	private LockNodeData() {
	}

	/**
	 * The data zklock's lock nodes carry for this process.
	 * @param application the application's name, such as {@code spring.application.name}, or
	 * {@code null}
	 * @param instance an id of this instance, or {@code null}
	 * @return the bytes, UTF-8
	 */
	public static byte[] forThisProcess(@Nullable String application, @Nullable String instance) {
		StringBuilder line = new StringBuilder(PREFIX).append("host=").append(word(hostName()))
			.append(" pid=")
			.append(ProcessHandle.current().pid());
		if (application != null && !application.isBlank()) {
			line.append(" app=").append(word(application));
		}
		if (instance != null && !instance.isBlank()) {
			line.append(" instance=").append(word(instance));
		}
		return line.toString().getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Says in words who a lock node's data names.
	 * @param data a lock node's data, as read from ZooKeeper; {@code null} or empty for none
	 * @return for example {@code "host web-2, process 4711, application 'billing'"}, or, for data
	 * zklock did not write, {@code "node data '10.0.0.5'"} (escaped, at most 100 characters) or
	 * {@code "no node data"}
	 */
	public static String describe(byte @Nullable [] data) {
		if (data == null || data.length == 0) {
			return "no node data";
		}
		String text = new String(data, StandardCharsets.UTF_8);
		if (text.startsWith(PREFIX)) {
			Map<String, String> fields = new LinkedHashMap<>();
			for (String field : text.substring(PREFIX.length()).split(" ")) {
				int equals = field.indexOf('=');
				if (equals > 0) {
					fields.put(field.substring(0, equals), field.substring(equals + 1));
				}
			}
			StringBuilder words = new StringBuilder();
			append(words, "host ", fields.get("host"), "");
			append(words, "process ", fields.get("pid"), "");
			append(words, "application '", fields.get("app"), "'");
			append(words, "instance '", fields.get("instance"), "'");
			if (!words.isEmpty()) {
				return words.toString();
			}
		}
		return "node data '" + LockPaths.escape(text.length() > SHOWN ? text.substring(0, SHOWN) + "…" : text) + "'";
	}

	private static void append(StringBuilder words, String label, @Nullable String value, String end) {
		if (value != null && !value.isEmpty()) {
			if (!words.isEmpty()) {
				words.append(", ");
			}
			words.append(label).append(value).append(end);
		}
	}

	/** A value as one word of the line: spaces and control characters become {@code _}. */
	private static String word(String value) {
		StringBuilder word = new StringBuilder(value.length());
		value.codePoints().forEach((c) -> word.appendCodePoint((Character.isWhitespace(c) || Character.isISOControl(c)) ? '_' : c));
		return word.toString();
	}

	/**
	 * This host's name, without a DNS lookup where the environment tells it (a lookup can stall on a
	 * badly configured host).
	 */
	private static String hostName() {
		for (String variable : new String[] { "HOSTNAME", "COMPUTERNAME" }) {
			String name = System.getenv(variable);
			if (name != null && !name.isBlank()) {
				return name;
			}
		}
		try {
			return InetAddress.getLocalHost().getHostName();
		}
		catch (Exception ex) {
			return "unknown";
		}
	}

}
