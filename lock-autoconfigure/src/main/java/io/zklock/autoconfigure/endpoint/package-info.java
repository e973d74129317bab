/**
 * Auto-configuration of the {@code locks} actuator endpoint.
 */
@NullMarked
package io.zklock.autoconfigure.endpoint;

import org.jspecify.annotations.NullMarked;
