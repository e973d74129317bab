package com.example.billing;

import java.util.List;

import io.zklock.integration.ZkLockRegistry;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.integration.leader.DefaultCandidate;
import org.springframework.integration.leader.event.OnGrantedEvent;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;

@Configuration(proxyBeanMethods = false)
public class BillingLeadership {

	private final ZkLockRegistry registry;   // the auto-configured one; it is the LockRegistry bean too

	private final Ledger ledger;

	public BillingLeadership(ZkLockRegistry registry, Ledger ledger) {
		this.registry = registry;
		this.ledger = ledger;
	}

	@Bean
	public LockRegistryLeaderInitiator leaderInitiator() {
		return new LockRegistryLeaderInitiator(this.registry, new DefaultCandidate("node-1", "billing-leader"));
	}

	@EventListener
	public void granted(OnGrantedEvent event) {
		long token = this.registry.fencingToken("billing-leader").orElseThrow();   // the leadership's token
		this.ledger.writeAsLeader(List.of("daily close"), token);                  // refuses older tokens
	}

}
