/**
 * A lock-history checker for tests: {@link io.zklock.test.history.LockHistory} records every
 * grant, release and loss of the locks a test takes (with fencing token, thread and monotonic
 * time), and {@link io.zklock.test.history.HistoryChecker} judges it against the fenced-mutex
 * model: no two conflicting holds at once, unique fencing tokens in real-time order, reentrant
 * acquires with their hold's token, no stale write accepted by a fenced resource. The model is
 * the one Jepsen's Hazelcast suite checks {@code FencedLock} with; zklock's own stress test and
 * fault suite use this package. For leadership it records the terms a {@code LeaderElection} grants
 * and revokes, and {@link io.zklock.test.history.HistoryChecker#checkTerms(java.util.List)} judges them
 * with the writes of the leaders against "one fenced writer per term".
 */
@NullMarked
package io.zklock.test.history;

import org.jspecify.annotations.NullMarked;
