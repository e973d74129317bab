package io.zklock.autoconfigure;

import org.apache.curator.framework.CuratorFrameworkFactory;

/**
 * Callback that adjusts the {@link CuratorFrameworkFactory.Builder} of the
 * {@link org.apache.curator.framework.CuratorFramework} zklock builds, after the
 * {@code zklock.zookeeper.*} properties were applied and before the client starts. Beans of
 * this type are applied in {@link org.springframework.core.annotation.Order} order. They
 * are not called when the application defines its own {@code CuratorFramework} bean.
 */
@FunctionalInterface
public interface CuratorFrameworkCustomizer {

	/**
	 * Customizes the builder.
	 * @param builder the builder to adjust
	 */
	void customize(CuratorFrameworkFactory.Builder builder);

}
