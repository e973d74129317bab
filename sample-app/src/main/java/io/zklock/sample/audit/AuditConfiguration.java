package io.zklock.sample.audit;

import io.zklock.sample.inventory.InventoryProperties;
import io.zklock.sample.inventory.InventoryStore;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * The inventory audit: a scheduled job that only the leader of role
 * {@value InventoryAudit#ROLE} runs, declared by its {@code @LeaderOnly} alone, and its ledger in
 * the shared inventory directory.
 */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
class AuditConfiguration {

	@Bean
	AuditLedger auditLedger(InventoryProperties properties) {
		return new AuditLedger(properties.getDir());
	}

	@Bean
	InventoryAudit inventoryAudit(InventoryStore store, AuditLedger ledger,
			@Value("${zklock.instance-id}") String instance) {
		return new InventoryAudit(store, ledger, instance);
	}

}
