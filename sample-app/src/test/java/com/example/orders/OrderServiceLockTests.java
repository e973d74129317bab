package com.example.orders;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.zklock.lock.LockAcquisitionException;
import io.zklock.test.BusyLock;
import io.zklock.test.EmbeddedZooKeeper;
import io.zklock.test.LockRecorder;
import io.zklock.test.TestZooKeeper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

@EmbeddedZooKeeper // a ZooKeeper server for this class; the application connects to it
@SpringBootTest
class OrderServiceLockTests {

	@Autowired
	private OrderService orders;

	@Autowired
	private LockRecorder locks;

	@Autowired
	private TestZooKeeper zookeeper;

	@Test
	void shouldShipUnderTheLockOfTheOrder() {
		List<LockRecorder.Acquisition> taken = this.locks.record(() -> this.orders.ship("42"));
		assertThat(taken).extracting(LockRecorder.Acquisition::lockPath).containsExactly("orders/42");
	}

	@Test
	void shouldWaitForAnotherInstanceThatShipsTheSameOrder() {
		try (BusyLock otherInstance = this.zookeeper.holdElsewhere("orders/7")) {
			// ship waits 5 s for the lock, then gives up without running
			assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(() -> this.orders.ship("7"));
		}
		this.orders.ship("7");
	}

}
