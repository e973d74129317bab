/**
 * Auto-configuration of the observations of lock acquisitions (Micrometer Observation).
 */
@NullMarked
package io.zklock.autoconfigure.observation;

import org.jspecify.annotations.NullMarked;
