package io.zklock.autoconfigure;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.ListableBeanFactory;

/**
 * Chooses the {@link CuratorFramework} zklock locks through when the application context has
 * one or more of its own (zklock then builds none): the only one, else the {@code @Primary}
 * one (or the only one not {@code @Fallback}), else the only one other than Spring Cloud
 * Zookeeper's {@value #SPRING_CLOUD_CONFIG_DATA_CLIENT}, the client that
 * {@code spring.config.import=zookeeper:} registers for loading configuration. Several
 * candidates left after that fail start-up, naming them: zklock never picks one at random.
 * Locking through a client zklock did not build is said in one INFO line, since the
 * {@code zklock.zookeeper.*} settings do not apply to it; such a client that is already
 * closed fails at once ({@link ApplicationClientCheck}).
 */
final class LockClientResolver {

	private static final Log logger = LogFactory.getLog(LockClientResolver.class);

	/** The bean name of the client zklock builds when the application has none. */
	private static final String ZKLOCK_CLIENT = "zkLockCuratorFramework";

	/** The bean name of the client Spring Cloud Zookeeper's config data loader registers. */
	static final String SPRING_CLOUD_CONFIG_DATA_CLIENT = "configDataCuratorFramework";

	private LockClientResolver() {
	}

	/**
	 * Resolves the client.
	 * @param beanFactory the application's bean factory
	 * @return the client
	 * @throws ZkLockStartupException if there is none, or several and none is preferred, or
	 * the application's client is closed
	 */
	static CuratorFramework resolve(ListableBeanFactory beanFactory) {
		CuratorFramework client = choose(beanFactory);
		if (!beanFactory.containsBean(ZKLOCK_CLIENT)) {
			ApplicationClientCheck.requireOpen(ApplicationClientCheck.beanNameOf(beanFactory, client), client);
			logger.info("zklock locks through the application's own CuratorFramework (ensemble '"
					+ client.getZookeeperClient().getCurrentConnectionString() + "', namespace '"
					+ ((client.getNamespace() != null) ? client.getNamespace() : "") + "'); the zklock.zookeeper.* "
					+ "settings apply only to a client zklock builds itself.");
		}
		return client;
	}

	private static CuratorFramework choose(ListableBeanFactory beanFactory) {
		CuratorFramework unique = beanFactory.getBeanProvider(CuratorFramework.class).getIfUnique();
		if (unique != null) {
			return unique;
		}
		List<String> names = Arrays.asList(beanFactory.getBeanNamesForType(CuratorFramework.class));
		List<String> others = names.stream().filter((name) -> !name.equals(SPRING_CLOUD_CONFIG_DATA_CLIENT)).toList();
		if (names.size() > 1 && others.size() == 1) {
			return beanFactory.getBean(others.get(0), CuratorFramework.class);
		}
		if (names.isEmpty()) {
			throw new ZkLockStartupException("zklock found no CuratorFramework bean to lock through.",
					"Define one, or remove what stops zklock from building its own (zklock builds one unless the "
							+ "application defines a CuratorFramework bean).",
					null);
		}
		throw new ZkLockStartupException(
				"zklock needs one CuratorFramework to lock through, but the application context has " + names.size()
						+ " and none of them is @Primary: "
						+ names.stream().map((name) -> "'" + name + "'").collect(Collectors.joining(", ")) + ".",
				"Mark the client zklock should use @Primary (or the others @Fallback), or define only one.", null);
	}

}
