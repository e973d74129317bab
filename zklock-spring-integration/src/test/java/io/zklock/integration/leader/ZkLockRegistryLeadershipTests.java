package io.zklock.integration.leader;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The leadership proof: Spring Integration's {@code LockRegistryLeaderInitiator} over
 * {@link io.zklock.integration.ZkLockRegistry}. The stale leader's heartbeat {@code tryLock}
 * answers {@code false} once its hold is in doubt or lost, so it is revoked within one session
 * timeout of the fault (of SIGCONT for a frozen process), two instances never both believe they
 * lead for longer than that, exactly one leads at the end, and the stale leader's writes with
 * its old fencing token are refused once the new leader wrote.
 */
@Tag("slow")
class ZkLockRegistryLeadershipTests extends LeadershipScenarios {

	@Override
	RegistryKind kind() {
		return RegistryKind.ZKLOCK;
	}

	@ParameterizedTest(name = "{0} instances")
	@ValueSource(ints = { 2, 3 })
	void shouldRevokeTheLeaderWhoseSessionExpired(int instances) throws Exception {
		Figures figures = sessionExpiry(instances);
		assertCorrect(figures);
	}

	@ParameterizedTest(name = "{0} instances")
	@ValueSource(ints = { 2, 3 })
	void shouldRevokeAPartitionedLeaderWithinTheSessionTimeout(int instances) throws Exception {
		Figures figures = partition(instances);
		assertCorrect(figures);
	}

	@ParameterizedTest(name = "{0} instances")
	@ValueSource(ints = { 3 })
	void shouldRevokeAPartitionedLeaderWithinTheSessionTimeoutUnderTheSessionPolicy(int instances) throws Exception {
		Figures figures = partitionUnderSessionPolicy(instances);
		// the session is lost at the server when the new leader is granted; the leader is revoked
		// within T of that, and two leaders overlap less than T
		assertThat(figures.newLeaderAfter()).as("another instance took over").isPresent();
		assertThat(figures.revokedAfter()).as("the stale leader's revocation").isPresent();
		assertThat(figures.revokedAfter().get().minus(figures.newLeaderAfter().get()))
			.as("revocation after the session was lost").isLessThanOrEqualTo(SESSION_TIMEOUT);
		assertThat(figures.coexistence()).as("time with two leaders").isLessThanOrEqualTo(SESSION_TIMEOUT);
		assertThat(figures.leadersAtEnd()).as("leaders at the end").hasSize(1).doesNotContain("a");
		assertThat(figures.staleAccepted()).as("stale writes accepted after the new leader's").isZero();
	}

	@ParameterizedTest(name = "{0} instances")
	@ValueSource(ints = { 2, 3 })
	void shouldRevokeAPausedLeaderOnResumeAndRefuseItsStaleWrite(int instances) throws Exception {
		Figures figures = pause(instances);
		assertCorrect(figures);
		assertThat(figures.staleRefused()).as("stale writes of the resumed leader refused").isPositive();
	}

	private static void assertCorrect(Figures figures) {
		assertThat(figures.newLeaderAfter()).as("another instance took over").isPresent();
		assertThat(figures.revokedAfter()).as("the stale leader's revocation").isPresent();
		assertThat(figures.revokedAfter().get()).as("revocation latency").isLessThanOrEqualTo(SESSION_TIMEOUT);
		assertThat(figures.coexistence()).as("time with two leaders").isLessThanOrEqualTo(SESSION_TIMEOUT);
		assertThat(figures.leadersAtEnd()).as("leaders at the end").hasSize(1).doesNotContain("a");
		assertThat(figures.staleAccepted()).as("stale writes accepted after the new leader's").isZero();
	}

}
