package io.zklock.lock;

import java.util.ServiceLoader;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

/**
 * Finds zklock's {@link LockEngine.Provider} with {@link ServiceLoader}, through the class loader
 * of this API (not the thread's context class loader, which may belong to an application that
 * comes and goes), and keeps it: the provider is stateless, so looking it up once serves every
 * later constructor. Thread-safe: two first calls at once may both look it up, and either
 * result serves.
 */
final class Engines {

	private static volatile LockEngine.@Nullable Provider provider;

	private Engines() {
	}

	/** A new engine over {@code client}, from zklock's provider. */
	static LockEngine create(CuratorFramework client, String rootPath) {
		return provider().create(client, rootPath);
	}

	private static LockEngine.Provider provider() {
		LockEngine.Provider found = provider;
		if (found == null) {
			found = load();
			provider = found;
		}
		return found;
	}

	private static LockEngine.Provider load() {
		ServiceLoader<LockEngine.Provider> loader = ServiceLoader.load(LockEngine.Provider.class,
				LockEngine.class.getClassLoader());
		return loader.findFirst()
			.orElseThrow(() -> new IllegalStateException("No zklock engine found: the service file "
					+ "META-INF/services/" + LockEngine.Provider.class.getName() + " of zklock-core is not on the "
					+ "class path. If zklock-core was repackaged into another jar (a shaded or fat jar), keep its "
					+ "service files (maven-shade-plugin: ServicesResourceTransformer), or pass a LockEngine such "
					+ "as io.zklock.lock.spi.LockCoordinator to the constructor"));
	}

}
