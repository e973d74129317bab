package io.zklock.endpoint;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import io.zklock.leadership.Candidacy;
import io.zklock.leadership.Candidate;
import io.zklock.leadership.LeaderElection;
import io.zklock.leadership.LeadershipException;
import io.zklock.leadership.Term;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.Selector.Match;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * The {@code leadership} actuator endpoint, read-only by default:
 * <ul>
 * <li>{@code GET /actuator/leadership}: every role this instance is a candidate for, with its
 * state, its term (fencing token, since), who leads, and the role's candidates of every instance
 * ({@link LeadershipDescriptor});</li>
 * <li>{@code GET /actuator/leadership/{role}}, such as {@code /actuator/leadership/billing-close}:
 * one role ({@link RoleDescriptor}), also one this instance is no candidate for; a role that is not
 * a valid lock path answers {@code 400};</li>
 * <li>{@code POST /actuator/leadership/{role}}: this instance yields its term of the role
 * ({@link YieldDescriptor}), once the role's leader-scoped work stopped; a write operation, allowed
 * only with {@code management.endpoint.leadership.access=unrestricted}.</li>
 * </ul>
 * Reading the candidates makes one ZooKeeper listing per role and one read per candidate; while
 * ZooKeeper is unreachable a role shows {@code candidatesError} instead. The rest makes no
 * ZooKeeper call. Thread-safe.
 */
@Endpoint(id = "leadership", defaultAccess = Access.READ_ONLY)
public class LeadershipEndpoint {

	private final LeaderElection election;

	/**
	 * Creates the endpoint.
	 * @param election the leader election of this instance
	 * @throws IllegalArgumentException if {@code election} is {@code null}
	 */
	public LeadershipEndpoint(LeaderElection election) {
		if (election == null) {
			throw new IllegalArgumentException("'election' must not be null");
		}
		this.election = election;
	}

	/**
	 * Lists the roles this instance is a candidate for.
	 * @return the roles, in the order they were joined
	 */
	@ReadOperation
	public LeadershipDescriptor roles() {
		Map<String, RoleDescriptor> roles = new LinkedHashMap<>();
		for (Candidacy candidacy : this.election.candidacies()) {
			roles.put(candidacy.role(), describe(candidacy.role(), candidacy));
		}
		return new LeadershipDescriptor(Instant.now(), this.election.getRootPath(), roles);
	}

	/**
	 * Describes one role.
	 * @param role the role's segments, such as {@code ["billing-close"]} or {@code ["billing", "close"]}
	 * @return the role
	 * @throws InvalidEndpointRequestException if the role is not a valid lock path
	 */
	@ReadOperation
	public RoleDescriptor role(@Selector(match = Match.ALL_REMAINING) String[] role) {
		String requested = String.join("/", role);
		Optional<Candidacy> candidacy = candidacy(requested);
		return describe(candidacy.map(Candidacy::role).orElse(requested), candidacy.orElse(null));
	}

	/**
	 * Yields this instance's term of a role: its leader-scoped work stops, its lock node is deleted
	 * and it queues again at the back, so another candidate leads. Waits at most the handover
	 * time-out for the work to stop.
	 * @param role the role's segments
	 * @return what was done
	 * @throws InvalidEndpointRequestException if the role is not a valid lock path, or this instance
	 * is no candidate for it
	 */
	@WriteOperation
	public YieldDescriptor yield(@Selector(match = Match.ALL_REMAINING) String[] role) {
		String requested = String.join("/", role);
		Candidacy candidacy = candidacy(requested).orElseThrow(() -> {
			String reason = "This instance is no candidate for role '" + requested + "', so it has no term to yield";
			return new InvalidEndpointRequestException(reason, reason);
		});
		Long token = candidacy.currentTerm().map(Term::fencingToken).orElse(null);
		boolean yielded = candidacy.yield();
		return new YieldDescriptor(candidacy.role(), yielded, yielded ? token : null, candidacy.state());
	}

	private Optional<Candidacy> candidacy(String role) {
		try {
			return this.election.candidacy(role);
		}
		catch (IllegalArgumentException ex) {
			String reason = String.valueOf(ex.getMessage());
			throw new InvalidEndpointRequestException(reason, reason, ex);
		}
	}

	private RoleDescriptor describe(String role, @Nullable Candidacy candidacy) {
		List<CandidateDescriptor> candidates = null;
		String error = null;
		try {
			List<Candidate> read = this.election.candidates(role);
			candidates = new ArrayList<>(read.size());
			for (Candidate candidate : read) {
				candidates.add(describe(candidates.size(), candidate));
			}
		}
		catch (LeadershipException ex) {
			error = ex.getMessage() + ((ex.getCause() != null) ? ": " + ex.getCause() : "");
		}
		CandidateDescriptor leader = (candidates != null && !candidates.isEmpty() && candidates.get(0).leader())
				? candidates.get(0) : null;
		TermDescriptor term = (candidacy != null) ? candidacy.currentTerm()
			.map((held) -> new TermDescriptor(held.fencingToken(), held.since(), held.isActive(),
					held.revocationReason().orElse(null)))
			.orElse(null) : null;
		return new RoleDescriptor(role, (candidacy != null) ? candidacy.state() : null,
				candidacy != null && candidacy.isLeader(), term, leader, candidates, error);
	}

	private static CandidateDescriptor describe(int position, Candidate candidate) {
		return new CandidateDescriptor(position, candidate.nodeName(), candidate.leader(), candidate.thisClient(),
				"0x" + Long.toHexString(candidate.sessionId()), candidate.joinedAt(), candidate.host(),
				candidate.processId(), candidate.application(), candidate.instance(), candidate.describe());
	}

}
