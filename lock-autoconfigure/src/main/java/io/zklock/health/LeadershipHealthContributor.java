package io.zklock.health;

import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

import io.zklock.health.internal.LeadershipCheck;
import io.zklock.leadership.LeaderElection;

import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthContributors;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * The health of this instance's candidacies on Spring Boot 4, one indicator per role
 * ({@code /actuator/health/leadership/<role>}, a {@code '/'} in a role shown as {@code '.'}): a
 * leader, a follower and a candidacy that stood down are {@code UP}, one in jeopardy is
 * {@code UNKNOWN}; details and reasons in {@link LeadershipCheck}. On Boot 3.5 the same check is
 * {@link LeadershipBoot3HealthContributor}. The roles are read at each request, so a role joined
 * later shows too; a check makes no ZooKeeper call. Thread-safe.
 */
public class LeadershipHealthContributor implements CompositeHealthContributor {

	private final LeadershipCheck check;

	/**
	 * Creates the contributor.
	 * @param election the election whose candidacies are reported
	 * @throws IllegalArgumentException if {@code election} is {@code null}
	 */
	public LeadershipHealthContributor(LeaderElection election) {
		this.check = new LeadershipCheck(election);
	}

	@Override
	public @Nullable HealthContributor getContributor(String name) {
		return this.check.names().contains(name) ? indicator(name) : null;
	}

	@Override
	public Stream<HealthContributors.Entry> stream() {
		return this.check.names().stream().map((name) -> new HealthContributors.Entry(name, indicator(name)));
	}

	private HealthIndicator indicator(String name) {
		return () -> this.check.check(name)
			.map((result) -> Health.status(new Status(result.status())).withDetails(result.details()).build())
			.orElseGet(() -> Health.status(Status.OUT_OF_SERVICE).withDetail("state", "LEFT").build());
	}

}
