package io.zklock.health;

import java.util.Iterator;

import org.jspecify.annotations.Nullable;

import io.zklock.health.internal.LeadershipCheck;
import io.zklock.leadership.LeaderElection;

import org.springframework.boot.actuate.health.CompositeHealthContributor;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthContributor;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.NamedContributor;
import org.springframework.boot.actuate.health.Status;

/**
 * The health of this instance's candidacies on Spring Boot 3.5, one indicator per role
 * ({@code /actuator/health/leadership/<role>}), as {@link LeadershipCheck} has it; on Boot 4 the
 * same check is {@code LeadershipHealthContributor}. The roles are read at each request, so a role
 * joined later shows too. Thread-safe.
 */
public class LeadershipBoot3HealthContributor implements CompositeHealthContributor {

	private final LeadershipCheck check;

	/**
	 * Creates the contributor.
	 * @param election the election whose candidacies are reported
	 * @throws IllegalArgumentException if {@code election} is {@code null}
	 */
	public LeadershipBoot3HealthContributor(LeaderElection election) {
		this.check = new LeadershipCheck(election);
	}

	@Override
	public @Nullable HealthContributor getContributor(String name) {
		return this.check.names().contains(name) ? indicator(name) : null;
	}

	@Override
	public Iterator<NamedContributor<HealthContributor>> iterator() {
		return this.check.names()
			.stream()
			.map((name) -> NamedContributor.of(name, (HealthContributor) indicator(name)))
			.iterator();
	}

	private HealthIndicator indicator(String name) {
		return () -> this.check.check(name)
			.map((result) -> Health.status(new Status(result.status())).withDetails(result.details()).build())
			.orElseGet(() -> Health.status(Status.OUT_OF_SERVICE).withDetail("state", "LEFT").build());
	}

}
