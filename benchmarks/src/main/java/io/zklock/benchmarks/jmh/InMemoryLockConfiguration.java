package io.zklock.benchmarks.jmh;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.zklock.lock.LockEngine;

/**
 * Replaces zklock's lock bean with {@link InMemoryLocks}, so that an annotated call measures
 * the interceptor alone (proxy, SpEL key, lock context, release) without ZooKeeper.
 */
@Configuration(proxyBeanMethods = false)
public class InMemoryLockConfiguration {

	@Bean
	InMemoryLocks inMemoryLocks(LockEngine engine) {
		return new InMemoryLocks(engine);
	}

}
