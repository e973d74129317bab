package io.zklock.lock.internal;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.ProtectedUtils;
import org.apache.curator.utils.ZKPaths;
import org.jspecify.annotations.Nullable;

/**
 * The nodes of one protected create. Curator's protected mode ({@code withProtection()}) names a
 * node {@code _c_<uuid>-…} and, when the create's reply is lost, lists the parent to find it
 * again by that prefix, the <em>protected id</em>. A listing served by a follower that has not
 * applied the create yet misses it, and Curator creates a second node with the same id: both
 * belong to the create's session, the first stands ahead of the second. The id is random and new
 * for each create builder, so the nodes carrying it are the create's own and nobody else's. See
 * docs/lock-protocol.md for why they are always seen after the create's reply, and why deleting
 * them never lets two holders in.
 */
final class ProtectedNodes {

	private ProtectedNodes() {
	}

	/** The protected id of a node's name ({@code _c_<uuid>-}), or {@code null} if it has none. */
	static @Nullable String protectedPrefix(String nodeName) {
		return ProtectedUtils.extractProtectedId(nodeName).map(ProtectedUtils::getProtectedPrefix).orElse(null);
	}

	/**
	 * Deletes a node and every other node of its create, in the background: deletes (guaranteed)
	 * the node itself at once, then lists its parent and deletes each other child with its
	 * protected id when the listing returns. Sent after the create's reply, so the listing shows
	 * every such node (a server answers a session only once it has applied everything the session
	 * saw); the node's own delete ahead of it changes nothing of that (docs/lock-protocol.md,
	 * "Giving up, timeouts and interrupts"). If the listing fails, only the node itself is deleted.
	 */
	static void deleteWithDuplicates(CuratorFramework client, String nodePath) {
		NodeDeletion.deleteInBackground(client, nodePath, null);
		ZKPaths.PathAndNode parent = ZKPaths.getPathAndNode(nodePath);
		String protectedId = protectedPrefix(parent.getNode());
		if (protectedId == null) {
			return;
		}
		try {
			client.getChildren().inBackground((c, event) -> {
				if (LockNodeCalls.isOk(event)) {
					event.getChildren()
						.stream()
						.filter((child) -> child.startsWith(protectedId) && !child.equals(parent.getNode()))
						.forEach((child) -> NodeDeletion.deleteInBackground(client,
								ZKPaths.makePath(parent.getPath(), child), null));
				}
			}).forPath(parent.getPath());
		}
		catch (Exception ex) {
			// the client is closing: the nodes die with the session
		}
	}

}
