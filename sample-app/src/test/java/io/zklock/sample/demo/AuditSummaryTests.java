package io.zklock.sample.demo;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.zklock.sample.audit.AuditStatus;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link AuditSummary}.
 */
class AuditSummaryTests {

	@Test
	void shouldShowOneInstanceRunningEachTickWhileTheOthersSkip() {
		Map<String, AuditStatus> statuses = new LinkedHashMap<>();
		statuses.put("instance-1", status("127.0.0.1:8081", true, 40, 3, 0));
		statuses.put("instance-2", status("127.0.0.1:8082", false, 0, 41, 0));
		statuses.put("instance-3", status("127.0.0.1:8083", false, 0, 40, 0));
		AuditSummary summary = AuditSummary.of(true, statuses,
				List.of("1 127.0.0.1:8081 40 100", "2 127.0.0.1:8081 40 99", "3 127.0.0.1:8081 40 98"));
		assertThat(summary.runners()).containsExactly("instance-1");
		assertThat(summary.leader()).contains("instance-1");
		assertThat(summary.writerRuns()).containsExactly("127.0.0.1:8081");
		assertThat(summary.oneWriterPerTerm()).isTrue();
		assertThat(print(summary)).contains("instance-1  leader, term token 3")
			.contains("each tick ran on exactly one instance: 40 runs, all on instance-1; the other 84 calls were skipped")
			.contains("audit ledger  3 entries by 127.0.0.1:8081; fencing tokens never decreasing; 0 refused");
	}

	@Test
	void shouldShowOneWriterPerTermAfterAHandover() {
		Map<String, AuditStatus> statuses = new LinkedHashMap<>();
		statuses.put("instance-1", status("127.0.0.1:8081", false, 40, 5, 0));
		statuses.put("instance-3", status("127.0.0.1:8083", true, 4, 40, 0));
		AuditSummary summary = AuditSummary.of(true, statuses,
				List.of("1 127.0.0.1:8081 40 100", "2 127.0.0.1:8081 40 99", "3 127.0.0.1:8083 52 99"));
		assertThat(summary.writerRuns()).containsExactly("127.0.0.1:8081", "127.0.0.1:8083");
		assertThat(summary.oneWriterPerTerm()).isTrue();
		assertThat(print(summary)).contains("2 instances ran the job (instance-1, instance-3): leadership moved, one "
				+ "writer per term: yes");
	}

	@Test
	void shouldTellInterleavedWritersAndDecreasingTokens() {
		Map<String, AuditStatus> statuses = Map.of("instance-1", status("127.0.0.1:8081", false, 2, 0, 0));
		AuditSummary summary = AuditSummary.of(false, statuses,
				List.of("1 127.0.0.1:8081 0 100", "2 127.0.0.1:8082 0 99", "3 127.0.0.1:8081 0 98"));
		assertThat(summary.oneWriterPerTerm()).isFalse();
		assertThat(print(summary)).contains("without zklock every instance runs the job");
		assertThat(AuditSummary.of(true, statuses, List.of("1 a 9 1", "2 a 8 1")).oneWriterPerTerm()).isFalse();
	}

	private static AuditStatus status(String instance, boolean leader, long runs, long skipped, long refused) {
		return new AuditStatus(instance, "inventory-audit", leader, leader ? 3 : 0, runs, skipped, refused);
	}

	private static String print(AuditSummary summary) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		summary.print(new PrintStream(out, true, StandardCharsets.UTF_8));
		return out.toString(StandardCharsets.UTF_8);
	}

}
