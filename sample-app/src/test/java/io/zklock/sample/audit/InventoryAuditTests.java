package io.zklock.sample.audit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.zklock.leadership.Term;
import io.zklock.test.BusyLock;
import io.zklock.test.EmbeddedZooKeeper;
import io.zklock.test.LeadershipTester;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The leader-only inventory audit of the sample application: its {@code @LeaderOnly} alone makes
 * the application a candidate for the role; it runs while the application leads, writing under its
 * term's token, and is skipped while another instance leads.
 */
@EmbeddedZooKeeper
@SpringBootTest(properties = { "sample.audit.interval-millis=20", "spring.main.banner-mode=off" })
@Timeout(60)
class InventoryAuditTests {

	@TempDir
	static Path inventoryDirectory;

	@DynamicPropertySource
	static void inventoryDirectory(DynamicPropertyRegistry registry) {
		registry.add("sample.inventory.dir", () -> inventoryDirectory.toString());
	}

	@Autowired
	private InventoryAudit audit;

	@Autowired
	private LeadershipTester leadership;

	@Test
	void shouldAuditUnderTheTermWhileLeadingAndSkipWhileAnotherInstanceLeads() throws Exception {
		Term term = this.leadership.awaitTerm(InventoryAudit.ROLE);
		await().atMost(Duration.ofSeconds(20)).until(() -> this.audit.getRunCount() >= 3);
		assertThat(ledgerTokens()).isNotEmpty().allSatisfy((token) -> assertThat(token).isEqualTo(term.fencingToken()));
		try (BusyLock otherLeader = this.leadership.leadElsewhere(InventoryAudit.ROLE)) {
			long runs = this.audit.getRunCount();
			long skipped = this.audit.getSkippedCount();
			await().atMost(Duration.ofSeconds(20)).until(() -> this.audit.getSkippedCount() >= skipped + 3);
			assertThat(this.audit.getRunCount()).as("no run while another instance leads").isEqualTo(runs);
		}
		Term next = this.leadership.awaitTerm(InventoryAudit.ROLE);
		long runs = this.audit.getRunCount();
		await().atMost(Duration.ofSeconds(20)).until(() -> this.audit.getRunCount() >= runs + 3);
		List<Long> tokens = ledgerTokens();
		assertThat(tokens.get(tokens.size() - 1)).isEqualTo(next.fencingToken()).isGreaterThan(term.fencingToken());
		assertThat(tokens).isSorted();
	}

	@Test
	void shouldRefuseAnEntryUnderAnOlderTokenThanTheLastOne() {
		AuditLedger ledger = new AuditLedger(inventoryDirectory.resolve("refusing"));
		inventoryDirectory.resolve("refusing").toFile().mkdirs();
		assertThat(ledger.append("a", 7L, 10)).isTrue();
		assertThat(ledger.append("a", 7L, 9)).as("the same term writes on").isTrue();
		assertThat(ledger.append("b", 9L, 8)).isTrue();
		assertThat(ledger.append("a", 7L, 7)).as("a stale leader").isFalse();
		assertThat(ledger.getRefusedCount()).isEqualTo(1);
	}

	private static List<Long> ledgerTokens() throws Exception {
		return Files.readAllLines(inventoryDirectory.resolve(AuditLedger.FILE_NAME))
			.stream()
			.map((line) -> Long.parseLong(line.split(" ")[2]))
			.toList();
	}

}
