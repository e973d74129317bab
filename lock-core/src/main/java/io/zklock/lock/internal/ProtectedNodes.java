package io.zklock.lock.internal;

import java.util.ArrayList;
import java.util.List;

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
	 * Deletes a node and every other node of its create, in the background: lists its parent, then
	 * deletes (guaranteed) each child with its protected id, and the node itself in any case. Sent
	 * after the create's reply, so the listing shows every such node (a server answers a session
	 * only once it has applied everything the session saw). If the listing fails, only the node
	 * itself is deleted.
	 */
	static void deleteWithDuplicates(CuratorFramework client, String nodePath) {
		ZKPaths.PathAndNode parent = ZKPaths.getPathAndNode(nodePath);
		String protectedId = protectedPrefix(parent.getNode());
		if (protectedId == null) {
			NodeDeletion.deleteInBackground(client, nodePath, null);
			return;
		}
		try {
			client.getChildren().inBackground((c, event) -> {
				List<String> targets = new ArrayList<>(List.of(nodePath));
				if (LockNodeCalls.isOk(event)) {
					event.getChildren()
						.stream()
						.filter((child) -> child.startsWith(protectedId) && !child.equals(parent.getNode()))
						.forEach((child) -> targets.add(ZKPaths.makePath(parent.getPath(), child)));
				}
				targets.forEach((target) -> NodeDeletion.deleteInBackground(client, target, null));
			}).forPath(parent.getPath());
		}
		catch (Exception ex) {
			// the client is closing: the nodes die with the session
		}
	}

}
