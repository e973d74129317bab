package io.zklock.autoconfigure;

import java.util.List;

import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;

/**
 * With authentication configured: lock nodes, the lock root and its parents (the
 * namespace included) are created with {@code CREATOR_ALL_ACL}, so a client without these
 * credentials can neither delete a holder's node nor create nodes under the lock root.
 * Other paths created through the same client keep ZooKeeper's open default.
 */
final class LockNodeAclProvider implements ACLProvider {

	private final String lockRoot;

	/**
	 * @param namespace the client's namespace, or {@code null}
	 * @param rootPath the lock root inside the namespace, such as {@code "/locks"}
	 */
	LockNodeAclProvider(String namespace, String rootPath) {
		this.lockRoot = (namespace != null && !namespace.isEmpty()) ? ZKPaths.makePath("/" + namespace, rootPath)
				: rootPath;
	}

	@Override
	public List<ACL> getDefaultAcl() {
		return ZooDefs.Ids.OPEN_ACL_UNSAFE;
	}

	@Override
	public List<ACL> getAclForPath(String path) {
		boolean onLockBranch = path.equals(this.lockRoot) || path.startsWith(this.lockRoot + "/")
				|| this.lockRoot.startsWith(path.endsWith("/") ? path : path + "/");
		return onLockBranch ? ZooDefs.Ids.CREATOR_ALL_ACL : ZooDefs.Ids.OPEN_ACL_UNSAFE;
	}

}
