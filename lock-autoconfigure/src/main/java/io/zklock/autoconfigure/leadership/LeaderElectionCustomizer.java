package io.zklock.autoconfigure.leadership;

import io.zklock.leadership.LeaderElection;

/**
 * Customizes the {@link LeaderElection.Builder} of the auto-configured {@link LeaderElection}
 * after zklock set it from {@code zklock.leadership.*}, such as to give listeners an executor of
 * the application's ({@link LeaderElection.Builder#listenerExecutor}). Beans of this type are
 * applied in order ({@code @Order}, {@code Ordered}).
 */
@FunctionalInterface
public interface LeaderElectionCustomizer {

	/**
	 * Customizes the builder.
	 * @param builder the builder, with zklock's settings applied
	 */
	void customize(LeaderElection.Builder builder);

}
