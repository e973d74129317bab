package io.zklock.sample.inventory;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Creates the {@link InventoryStore} over {@code sample.inventory.dir}.
 */
@Configuration(proxyBeanMethods = false)
class InventoryConfiguration {

	@Bean
	InventoryStore inventoryStore(InventoryProperties properties) {
		return new InventoryStore(properties.getDir());
	}

}
