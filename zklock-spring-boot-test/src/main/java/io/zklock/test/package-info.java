/**
 * Test support for applications that use zklock: {@link io.zklock.test.EmbeddedZooKeeper}
 * (an in-process ZooKeeper server per test class), {@link io.zklock.test.LockAssert},
 * {@link io.zklock.test.LockRecorder}, {@link io.zklock.test.BusyLock}, and
 * {@link io.zklock.test.LeadershipTester} (force the grant, revocation and session expiry of a role).
 */
@NullMarked
package io.zklock.test;

import org.jspecify.annotations.NullMarked;
