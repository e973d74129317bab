/**
 * The embedded ZooKeeper server, for development and tests: started when
 * {@code zklock.embedded.enabled} is true.
 */
@NullMarked
package io.zklock.autoconfigure.embedded;

import org.jspecify.annotations.NullMarked;
