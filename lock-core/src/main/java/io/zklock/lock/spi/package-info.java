/**
 * The engine's service provider interface: what the Spring module, the actuator endpoint and
 * tests see of zklock's lock engine. Applications use the API in {@code io.zklock.lock} and
 * need this package only to share one engine between beans without Spring.
 * <ul>
 * <li>{@link io.zklock.lock.spi.LockCoordinator}: the engine's front door, the
 * {@link io.zklock.lock.LockEngine} of one Curator client (a Spring bean under the
 * auto-configuration);</li>
 * <li>{@link io.zklock.lock.spi.LockRoot}: where lock paths live in ZooKeeper;</li>
 * <li>{@link io.zklock.lock.spi.LockQueueInspector}, {@link io.zklock.lock.spi.LockQueue},
 * {@link io.zklock.lock.spi.QueuedNode}: the queue of a lock path as ZooKeeper has it, for
 * operations;</li>
 * <li>{@link io.zklock.lock.spi.LockCoordinatorProvider}: found by
 * {@link java.util.ServiceLoader} for the API's constructors that take a client.</li>
 * </ul>
 * It imports the API and the machinery ({@code io.zklock.lock.internal}); the API imports
 * nothing of it. Types of this package are non-null unless marked
 * {@link org.jspecify.annotations.Nullable}.
 */
@NullMarked
package io.zklock.lock.spi;

import org.jspecify.annotations.NullMarked;
