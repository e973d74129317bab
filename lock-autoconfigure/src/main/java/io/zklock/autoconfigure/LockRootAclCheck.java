package io.zklock.autoconfigure;

import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;

/**
 * At start-up, with authentication configured: checks that the lock root does not let
 * anyone ({@code world:anyone}) create or delete nodes under it, which would let any client
 * delete a holder's lock node. Warns, or fails with
 * {@code zklock.zookeeper.auth.fail-on-open-acl=true}. Fails when the configured
 * credentials may not even read the root's ACL, and when the ensemble refuses to authenticate
 * them at all.
 */
final class LockRootAclCheck {

	private static final Log logger = LogFactory.getLog(LockRootAclCheck.class);

	private LockRootAclCheck() {
	}

	static void check(CuratorFramework client, String rootPath, String scheme, boolean failOnOpenAcl) {
		List<ACL> acl;
		try {
			if (client.checkExists().forPath(rootPath) == null) {
				return;
			}
			acl = client.getACL().forPath(rootPath);
		}
		catch (KeeperException.NoAuthException ex) {
			throw new ZkLockStartupException(
					"The credentials in zklock.zookeeper.auth.credentials may not read the ACL of the lock root "
							+ rootPath + ": it was created by other credentials.",
					"Use the credentials that created " + rootPath + ", or choose another zklock.root-path.", ex);
		}
		catch (KeeperException.AuthFailedException ex) {
			throw new ZkLockStartupException("ZooKeeper refused to authenticate zklock's client with the scheme '"
					+ scheme + "' of zklock.zookeeper.auth.scheme (AuthFailed) and ended its session: the ensemble "
					+ "does not support that scheme, or refuses the credentials.",
					"Set zklock.zookeeper.auth.scheme to a scheme the ensemble supports (such as 'digest', the default) "
							+ "and zklock.zookeeper.auth.credentials to credentials it accepts ('user:password' for "
							+ "digest).",
					ex);
		}
		catch (Exception ex) {
			throw new ZkLockStartupException(
					"Could not read the ACL of the lock root " + rootPath + ": " + ex + ".",
					"Check that the ensemble is reachable and zklock.root-path is right.", ex);
		}
		boolean open = acl.stream()
			.anyMatch((entry) -> ZooDefs.Ids.ANYONE_ID_UNSAFE.equals(entry.getId())
					&& (entry.getPerms() & (ZooDefs.Perms.CREATE | ZooDefs.Perms.DELETE)) != 0);
		if (!open) {
			return;
		}
		String description = "The lock root " + rootPath + " lets world:anyone create or delete nodes under it "
				+ "(it was created without authentication), so any client can delete a holder's lock node.";
		String action = "Re-create " + rootPath + " with these credentials (delete it while no lock is held), "
				+ "or set its ACL to the authenticated id with setAcl.";
		if (failOnOpenAcl) {
			throw new ZkLockStartupException(description, action, null);
		}
		logger.warn(description + " " + action + " (zklock.zookeeper.auth.fail-on-open-acl=true fails start-up instead.)");
	}

}
