/**
 * Auto-configuration of zklock's Micrometer meters.
 */
@NullMarked
package io.zklock.autoconfigure.metrics;

import org.jspecify.annotations.NullMarked;
