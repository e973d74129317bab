package io.zklock.lock;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.zklock.lock.ZkTestSupport.ROOT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@link GuardedTransaction} on a real server: the writes apply while the lock node exists,
 * and not at all once it is gone (deleted by another session here, as the server does when the
 * holder's session expires); the operations' own failures pass through.
 */
@Timeout(60)
class GuardedTransactionTests extends ZkServerTest {

	private static final String DATA = "/guarded/pricing";

	private CuratorFramework client;

	private CuratorFramework other;

	private ILockByCurator locks;

	@BeforeEach
	void start() throws Exception {
		this.client = this.clients.newClient();
		this.other = this.clients.newClient();
		this.locks = new ExclusiveLockByCurator(this.client, ROOT);
		if (this.client.checkExists().forPath(DATA) == null) {
			this.client.create().creatingParentsIfNeeded().forPath(DATA, bytes("v0"));
		}
	}

	@Test
	void shouldWriteWhileTheLockIsHeld() throws Exception {
		try (LockHandle lock = this.locks.acquire("pricing", LockMode.EXCLUSIVE)) {
			List<CuratorTransactionResult> results = GuardedTransaction.commit(this.client, lock,
					this.client.transactionOp().setData().forPath(DATA, bytes("v1")));
			assertThat(results).singleElement().satisfies((result) -> assertThat(result.getForPath()).isEqualTo(DATA));
		}
		assertThat(read()).isEqualTo("v1");
	}

	@Test
	void shouldRefuseTheWriteOnceTheLockNodeIsGone() throws Exception {
		LockHandle lock = this.locks.acquire("pricing", LockMode.WRITE);
		this.other.delete().forPath(lock.nodePath()); // what the server does when the holder's session expires
		String before = read();
		assertThatExceptionOfType(LockLostException.class)
			.isThrownBy(() -> GuardedTransaction.commit(this.client, lock,
					this.client.transactionOp().setData().forPath(DATA, bytes("stale"))))
			.withMessageStartingWith("The guarded write under 'pricing' was refused: its lock node " + lock.nodePath())
			.satisfies((ex) -> assertThat(ex.getFencingToken()).isEqualTo(lock.fencingToken()));
		assertThat(read()).isEqualTo(before);
		lock.release();
	}

	@Test
	void shouldPassTheOperationsOwnFailureThroughAndWriteNothing() throws Exception {
		try (LockHandle lock = this.locks.acquire("pricing", LockMode.EXCLUSIVE)) {
			String before = read();
			assertThatExceptionOfType(KeeperException.BadVersionException.class)
				.isThrownBy(() -> GuardedTransaction.commit(this.client, lock,
						this.client.transactionOp().setData().forPath(DATA, bytes("first")),
						this.client.transactionOp().setData().withVersion(999).forPath(DATA, bytes("second"))));
			assertThat(read()).isEqualTo(before);
		}
	}

	@Test
	void shouldRefuseAReadLockAReleasedLockAndNoOperation() throws Exception {
		try (LockHandle read = this.locks.acquire("reports", LockMode.READ)) {
			assertThatIllegalArgumentException().isThrownBy(() -> GuardedTransaction.lockCheck(this.client, read))
				.withMessage("The READ lock on 'reports' is shared, so it guards no write: take it in mode EXCLUSIVE "
						+ "or WRITE");
		}
		LockHandle lock = this.locks.acquire("pricing", LockMode.EXCLUSIVE);
		assertThatIllegalArgumentException().isThrownBy(() -> GuardedTransaction.commit(this.client, lock))
			.withMessageStartingWith("A guarded transaction needs at least one operation");
		lock.release();
		assertThatIllegalStateException()
			.isThrownBy(() -> GuardedTransaction.commit(this.client, lock,
					this.client.transactionOp().setData().forPath(DATA, bytes("late"))))
			.withMessageContaining("was released: acquire it again before writing");
	}

	private String read() throws Exception {
		return new String(this.client.getData().forPath(DATA), StandardCharsets.UTF_8);
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
