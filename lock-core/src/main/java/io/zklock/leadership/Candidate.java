package io.zklock.leadership;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import io.zklock.internal.LockNodeData;
import org.jspecify.annotations.Nullable;

/**
 * One candidate of a role as ZooKeeper has it: a lock node in the role's queue, of any process
 * (zklock's candidates, and Curator peers using {@code InterProcessMutex} or {@code LeaderSelector}
 * on the same path), with what its node data says of its holder. The first in the queue is the
 * leader. Read from ZooKeeper by {@link LeaderElection#candidates(String)} and
 * {@link LeaderElection#leader(String)}, and kept current for each candidacy by
 * {@link Candidacy#leader()} and {@link LeadershipListener#onLeaderChanged(String, Candidate)}.
 *
 * @param role the role, such as {@code "billing-close"}
 * @param nodeName the lock node's name, such as {@code "_c_5e1…-lock-0000000007"}
 * @param sessionId the ZooKeeper session that owns the node
 * @param joinedAt when the node was created, by the server's clock: the candidate has led since
 * then if it is the leader and found the role free, else since its predecessor left
 * @param leader whether it leads now (no node precedes it)
 * @param thisClient whether the node belongs to the session of the election that read it
 * @param host the holder's host name, or {@code null} if its node data does not say (a Curator peer)
 * @param processId the holder's process id, or {@code null} if its node data does not say
 * @param application the holder's application name, or {@code null} if none was given
 * @param instance the holder's instance id, or {@code null} if none was given
 * @param nodeData the node's data as text, empty if none
 */
public record Candidate(String role, String nodeName, long sessionId, Instant joinedAt, boolean leader,
		boolean thisClient, @Nullable String host, @Nullable Long processId, @Nullable String application,
		@Nullable String instance, String nodeData) {

	/**
	 * Says in words who the candidate is.
	 * @return for example {@code "host web-2, process 4711, application 'billing'"}; for node data
	 * zklock did not write, {@code "node data '10.0.0.5'"} (escaped, at most 100 characters) or
	 * {@code "no node data"}
	 */
	public String describe() {
		return LockNodeData.describe(this.nodeData.getBytes(StandardCharsets.UTF_8));
	}

}
