package io.zklock.leadership.internal;

import java.util.HashMap;
import java.util.Map;

import io.zklock.leadership.Candidate;
import io.zklock.lock.inspection.QueuedNode;
import org.jspecify.annotations.Nullable;

/**
 * Reads what a candidate's lock node says of its holder: zklock's nodes carry one line,
 * {@code zklock host=web-2 pid=4711 app=billing instance=b-1} ({@code io.zklock.internal.LockNodeData});
 * a Curator peer's carry its IP address, which names no field. Stateless.
 */
final class HolderData {

	private static final String PREFIX = "zklock ";

	private HolderData() {
	}

	/**
	 * The candidate a queued node of a role is.
	 * @param role the role
	 * @param node the node as the inspection read it
	 * @param ownSessionId the reading election's session, 0 if unknown
	 */
	static Candidate candidate(String role, QueuedNode node, long ownSessionId) {
		Map<String, String> fields = fields(node.data());
		return new Candidate(role, node.nodeName(), node.sessionId(), node.createdAt(), node.holder(),
				ownSessionId != 0 && node.sessionId() == ownSessionId, fields.get("host"), processId(fields.get("pid")),
				fields.get("app"), fields.get("instance"), node.data());
	}

	/** The fields of a zklock node's line; empty for data zklock did not write. */
	static Map<String, String> fields(String data) {
		Map<String, String> fields = new HashMap<>();
		if (!data.startsWith(PREFIX)) {
			return fields;
		}
		for (String field : data.substring(PREFIX.length()).trim().split(" ")) {
			int equals = field.indexOf('=');
			if (equals > 0 && equals < field.length() - 1) {
				fields.put(field.substring(0, equals), field.substring(equals + 1));
			}
		}
		return fields;
	}

	private static @Nullable Long processId(@Nullable String pid) {
		if (pid == null) {
			return null;
		}
		try {
			return Long.valueOf(pid);
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

}
