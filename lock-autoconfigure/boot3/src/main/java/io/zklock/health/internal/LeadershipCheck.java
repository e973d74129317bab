package io.zklock.health.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.zklock.leadership.Candidacy;
import io.zklock.leadership.CandidacyState;
import io.zklock.leadership.Candidate;
import io.zklock.leadership.LeaderElection;
import io.zklock.leadership.Term;

/**
 * The health check of this instance's candidacies, one per role, free of Spring Boot types so that
 * the health contributors of both Boot lines share it ({@code LeadershipHealthContributor} on Boot 4,
 * {@link io.zklock.health.LeadershipBoot3HealthContributor} on Boot 3.5).
 * <ul>
 * <li>{@code UP} for a leader, a follower, and a candidacy that stood down (such as while the
 * application's readiness refuses traffic): each is what it should be, and a follower is a healthy
 * stand-by;</li>
 * <li>{@code UNKNOWN} in jeopardy: the term was revoked for a suspended connection or an expired
 * lease and may resume, so this instance cannot tell whether it still holds the role. A brief
 * jeopardy is normal (a connection blip); it does not make a load balancer drop the instance or a
 * liveness probe restart it. The connection itself is reported by the {@code zklock} health
 * indicator, which is {@code DOWN} while suspended.</li>
 * </ul>
 * Details: {@code state} ({@link CandidacyState}), {@code leader} (whether this instance leads),
 * {@code fencingToken} and {@code since} of the term it holds, {@code revocationReason} of a term in
 * jeopardy, and {@code currentLeader}: who leads, as the candidacy last read it. A check makes no
 * ZooKeeper call. Thread-safe.
 */
public final class LeadershipCheck {

	private final LeaderElection election;

	/**
	 * Creates a check.
	 * @param election the election whose candidacies are checked
	 * @throws IllegalArgumentException if {@code election} is {@code null}
	 */
	public LeadershipCheck(LeaderElection election) {
		if (election == null) {
			throw new IllegalArgumentException("'election' must not be null");
		}
		this.election = election;
	}

	/**
	 * The names of the contributors: one per candidacy, the role with each {@code '/'} as a
	 * {@code '.'} (a health path's segments are contributor names).
	 * @return the names, in the order the roles were joined
	 */
	public List<String> names() {
		return this.election.candidacies().stream().map(Candidacy::role).map(LeadershipCheck::nameOf).toList();
	}

	/**
	 * Checks the candidacy of the contributor with a name.
	 * @param name a name of {@link #names()}
	 * @return the result, or empty if no candidacy has that name (any more)
	 */
	public Optional<Result> check(String name) {
		return this.election.candidacies()
			.stream()
			.filter((candidacy) -> nameOf(candidacy.role()).equals(name))
			.findFirst()
			.map(LeadershipCheck::check);
	}

	private static Result check(Candidacy candidacy) {
		CandidacyState state = candidacy.state();
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("role", candidacy.role());
		details.put("state", state.name());
		details.put("leader", candidacy.isLeader());
		Optional<Term> term = candidacy.currentTerm();
		term.ifPresent((held) -> {
			details.put("fencingToken", held.fencingToken());
			details.put("since", held.since().toString());
			held.revocationReason().ifPresent((reason) -> details.put("revocationReason", reason.name()));
		});
		candidacy.leader().ifPresent((leader) -> details.put("currentLeader", describe(leader)));
		return new Result(statusOf(state), details);
	}

	private static String describe(Candidate leader) {
		return leader.thisClient() ? "this instance (" + leader.describe() + ")" : leader.describe();
	}

	/**
	 * The health status code of a candidacy state.
	 * @param state the state
	 * @return {@code "UP"}, {@code "UNKNOWN"} in jeopardy, {@code "OUT_OF_SERVICE"} once left
	 */
	public static String statusOf(CandidacyState state) {
		return switch (state) {
			case LEADER, FOLLOWER, STOOD_DOWN -> "UP";
			case JEOPARDY -> "UNKNOWN";
			case LEFT -> "OUT_OF_SERVICE";
		};
	}

	private static String nameOf(String role) {
		return role.replace('/', '.');
	}

	/**
	 * What a check found.
	 *
	 * @param status the health status code: {@code "UP"}, {@code "UNKNOWN"} or {@code "OUT_OF_SERVICE"}
	 * @param details the details, in a fixed order
	 */
	public record Result(String status, Map<String, Object> details) {
	}

}
