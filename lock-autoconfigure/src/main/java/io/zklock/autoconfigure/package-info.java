/**
 * zklock's Spring Boot auto-configuration: the Curator client, the lock beans, the
 * {@code zklock.*} properties ({@link io.zklock.autoconfigure.ZkLockProperties}), the start-up
 * checks and their failure analyzers.
 */
@NullMarked
package io.zklock.autoconfigure;

import org.jspecify.annotations.NullMarked;
