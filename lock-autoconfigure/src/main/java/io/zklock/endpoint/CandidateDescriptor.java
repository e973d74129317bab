package io.zklock.endpoint;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * One candidate of a role, of any instance, as its lock node in ZooKeeper says.
 *
 * @param position its place in the role's queue: 0 for the leader
 * @param nodeName the lock node's name, such as {@code "_c_5e1…-lock-0000000007"}
 * @param leader whether it leads now
 * @param thisInstance whether it is this instance's candidacy
 * @param sessionId the ZooKeeper session that owns the node, in hexadecimal
 * @param joinedAt when the node was created, by the server's clock
 * @param host the holder's host name, or {@code null} if its node data does not say (a Curator peer)
 * @param processId the holder's process id, or {@code null} if not said
 * @param application the holder's application name, or {@code null} if none was given
 * @param instance the holder's instance id ({@code zklock.instance-id}), or {@code null} if none
 * @param description who the candidate is, in words, such as
 * {@code "host web-2, process 4711, application 'billing'"}
 */
public record CandidateDescriptor(int position, String nodeName, boolean leader, boolean thisInstance, String sessionId,
		Instant joinedAt, @Nullable String host, @Nullable Long processId, @Nullable String application,
		@Nullable String instance, String description) {

}
