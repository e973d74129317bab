package com.example.orders;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.autoconfigure.embedded.EmbeddedZooKeeperServer;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.ApplicationContext;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the code of {@code docs/getting-started.md} with its {@code prod} profile
 * ({@code application-prod.yml}): no in-process server; the client connects to the ensemble
 * named by {@code ZOOKEEPER_CONNECT_STRING}, here a real ZooKeeper server on loopback.
 */
@SpringBootTest(classes = OrdersApplication.class, webEnvironment = WebEnvironment.NONE,
		properties = "spring.config.location=classpath:com/example/orders/")
@ActiveProfiles("prod")
@DirtiesContext
@Timeout(60)
class GettingStartedProdProfileTests {

	/** A real ZooKeeper server on loopback, outside the application's context. */
	private static final EmbeddedZooKeeperServer ensemble = new EmbeddedZooKeeperServer(0);

	@Autowired
	private ApplicationContext context;

	@Autowired
	private CuratorFramework client;

	@Autowired
	private OrderService orders;

	@Autowired
	private ShippingLedger ledger;

	@DynamicPropertySource
	static void ensemble(DynamicPropertyRegistry registry) {
		registry.add("ZOOKEEPER_CONNECT_STRING", ensemble::getConnectString);
	}

	@AfterAll
	static void stopServer() {
		ensemble.destroy();
	}

	@Test
	void shouldConnectToTheEnsembleOfApplicationProdYml() throws Exception {
		assertThat(this.context.getBeansOfType(EmbeddedZooKeeperServer.class)).isEmpty();
		assertThat(this.client.getZookeeperClient().getCurrentConnectionString())
			.isEqualTo(ensemble.getConnectString());
		this.orders.ship("1001");
		assertThat(this.ledger.shipments("1001")).isOne();
	}

}
