package io.zklock.endpoint;

import java.time.Instant;
import java.util.Map;

/**
 * The roles this instance is a candidate for, as {@code GET /actuator/leadership} lists them.
 *
 * @param time when the roles were read
 * @param rootPath the leadership root the roles are lock paths under, such as {@code "/leaders"}
 * @param roles each role's candidacy, term and candidates, by role, in the order they were joined
 */
public record LeadershipDescriptor(Instant time, String rootPath, Map<String, RoleDescriptor> roles) {

}
