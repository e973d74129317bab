package io.zklock.benchmarks.leadership;

import java.util.List;

import io.zklock.benchmarks.leadership.LeaderStore.Write;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The figures of a faulted leader, from the store's records alone: the successor begins at its
 * first passed check (or an earlier grant callback); the old leader's writes that reached the store
 * after that are stale, accepted or refused; its checks that passed after it are two running
 * leaders, counted from the later of that begin and the resume.
 */
class LeaderRunTests {

	private static final long MS = 1_000_000;

	@Test
	void shouldCountTheResumedLeadersChecksAndWritesAfterItsSuccessorBegan() {
		List<Write> writes = List.of(new Write("c1", 10L, 0, 0, 1 * MS, true),
				// frozen from 5 ms to 4,005 ms; c2 leads from 2,000 ms
				new Write("c2", 20L, 2_000 * MS, 2_000 * MS, 2_001 * MS, true),
				new Write("c2", 20L, 2_005 * MS, 2_005 * MS, 2_006 * MS, true),
				// c1 resumes at 4,005 ms: one write checked before the freeze, then two more checks
				new Write("c1", 10L, 4 * MS, 4 * MS, 4_006 * MS, false), new Write("c1", 10L, 4_010 * MS, 4_010 * MS, 4_011 * MS, false),
				new Write("c1", 10L, 4_205 * MS, 4_205 * MS, 4_206 * MS, false));
		LibraryFigures.StaleLeader figures = LeaderRun.staleLeader("c1", "c2", writes, Long.MAX_VALUE, 5 * MS,
				4_005 * MS);
		assertThat(figures.staleAccepted()).isZero();
		assertThat(figures.staleRefused()).isEqualTo(3);
		assertThat(figures.staleChecks()).isEqualTo(2);
		assertThat(figures.twoLeadersMs()).isCloseTo(200.0, within(0.001));
		assertThat(figures.nextWriteMs()).isCloseTo(1_996.0, within(0.001));
	}

	@Test
	void shouldCountAWriteThatReachedTheStoreBeforeTheSuccessorsFirstOneAsStaleButAccepted() {
		List<Write> writes = List.of(new Write("c1", 10L, 0, 0, 1 * MS, true),
				new Write("c1", 10L, 4 * MS, 4 * MS, 2_100 * MS, true),
				new Write("c2", 20L, 2_050 * MS, 2_050 * MS, 2_200 * MS, true));
		// c2's grant callback ran at 2,000 ms, before its first check
		LibraryFigures.StaleLeader figures = LeaderRun.staleLeader("c1", "c2", writes, 2_000 * MS, 5 * MS, 2_090 * MS);
		assertThat(figures.staleAccepted()).isEqualTo(1);
		assertThat(figures.staleChecks()).isZero();
		assertThat(figures.twoLeadersMs()).isZero();
	}

	@Test
	void shouldCountTheChecksOfALeaderThatRanOnWhileCutOff() {
		List<Write> writes = List.of(new Write("c1", 10L, 1_000 * MS, 1_000 * MS, 1_001 * MS, true),
				new Write("c2", 20L, 2_000 * MS, 2_000 * MS, 2_001 * MS, true),
				new Write("c1", 10L, 2_050 * MS, 2_050 * MS, 2_051 * MS, false));
		// cut off at 0: it could run all along
		LibraryFigures.StaleLeader figures = LeaderRun.staleLeader("c1", "c2", writes, Long.MAX_VALUE, 0, 0);
		assertThat(figures.staleRefused()).isEqualTo(1);
		assertThat(figures.twoLeadersMs()).isCloseTo(50.0, within(0.001));
	}

}
