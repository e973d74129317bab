package io.zklock.fencing;

import org.apache.curator.framework.CuratorFramework;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.LockContext;
import io.zklock.lock.GuardedTransaction;
import io.zklock.lock.LockHandle;

/**
 * The {@code GuardedTransaction} sample of docs/fencing.md. {@link FencingSampleTests} runs it.
 */
// tag::pricing[]
public class PricingPublisher {

	private final CuratorFramework client; // zklock's client: lock nodes and data in one namespace

	public PricingPublisher(CuratorFramework client) {
		this.client = client;
	}

	@DistributedLock(path = "config/pricing")
	public void publish(byte[] json) throws Exception {
		LockHandle lock = LockContext.currentLock().orElseThrow();
		GuardedTransaction.commit(this.client, lock, // applies only while the lock node exists
				this.client.transactionOp().setData().forPath("/config/pricing", json));
	}

}
// end::pricing[]
