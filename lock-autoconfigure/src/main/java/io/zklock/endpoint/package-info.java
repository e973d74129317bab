/**
 * The {@code locks} actuator endpoint and the descriptors it returns: the locks this instance
 * holds and the lock nodes with their queues.
 */
@NullMarked
package io.zklock.endpoint;

import org.jspecify.annotations.NullMarked;
