package io.zklock.autoconfigure.leadership;

import java.util.List;

/**
 * A role the application declares, with whether this instance is its candidate and which beans
 * only its leader runs.
 *
 * @param role the role, normalised as a lock path (no leading {@code '/'})
 * @param candidate whether this instance joins it
 * @param leaderScopedBeans the names of its leader-scoped beans, in declaration order
 * @param declaredBy where it is declared, for messages, such as
 * {@code "@LeaderOnly on BillingJobs.close()"} or {@code "zklock.leadership.roles.billing-close"}
 */
record DeclaredRole(String role, boolean candidate, List<String> leaderScopedBeans, List<String> declaredBy) {
}
