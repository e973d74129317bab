/**
 * zklock's lock API and engine: fair exclusive and read/write locks on Apache ZooKeeper
 * through Apache Curator, with fencing tokens, lock-loss detection and semaphores. No Spring
 * dependency: {@code new ExclusiveLockByCurator(client, "/locks")} works in any Java
 * program.
 *
 * <p>
 * Types of this package are non-null unless marked {@link org.jspecify.annotations.Nullable}.
 */
@NullMarked
package io.zklock.lock;

import org.jspecify.annotations.NullMarked;
