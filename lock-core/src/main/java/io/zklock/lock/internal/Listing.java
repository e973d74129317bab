package io.zklock.lock.internal;

import java.util.List;

import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * One reply to a listing of a lock path: its result code, the children and the lock path's Stat
 * (for the fencing token's evidence), from Curator's background API or from a synchronous call on
 * the caller's thread.
 *
 * @param resultCode ZooKeeper's result code
 * @param children the child names; empty unless the listing succeeded
 * @param stat the lock path's Stat; {@code null} unless the listing succeeded
 */
record Listing(int resultCode, List<String> children, @Nullable Stat stat) {

	/** A background listing's reply. */
	static Listing of(CuratorEvent event) {
		List<String> children = event.getChildren();
		return new Listing(event.getResultCode(), (children != null) ? children : List.of(), event.getStat());
	}

	/** A listing that failed with {@code code}, or that was cut short (then any failure code will do). */
	static Listing failed(KeeperException.Code code) {
		return new Listing(code.intValue(), List.of(), null);
	}

	boolean isOk() {
		return this.resultCode == KeeperException.Code.OK.intValue() && this.stat != null;
	}

}
