/**
 * zklock's Micrometer meters: lock acquisitions, waits, holds and the locks held.
 */
@NullMarked
package io.zklock.metrics;

import org.jspecify.annotations.NullMarked;
