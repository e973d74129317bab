package io.zklock.fault;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

import org.apache.zookeeper.ZooKeeper;

/**
 * The paths a ZooKeeper handle keeps watchers on, of every kind (data, exists, child, persistent,
 * persistent recursive): what it sets again on the server each time it connects. The handle's
 * accessors for them are protected (meant for tests), so they are read reflectively.
 */
final class ZooKeeperHandleWatches {

	private static final String[] KINDS = { "getDataWatches", "getExistWatches", "getChildWatches",
			"getPersistentWatches", "getPersistentRecursiveWatches" };

	private ZooKeeperHandleWatches() {
	}

	/** The watched paths (namespace included), one entry per kind and path. */
	@SuppressWarnings("unchecked")
	static List<String> of(ZooKeeper zooKeeper) throws ReflectiveOperationException {
		List<String> paths = new ArrayList<>();
		for (String kind : KINDS) {
			Method accessor = ZooKeeper.class.getDeclaredMethod(kind);
			accessor.setAccessible(true);
			paths.addAll((List<String>) accessor.invoke(zooKeeper));
		}
		return paths;
	}

}
