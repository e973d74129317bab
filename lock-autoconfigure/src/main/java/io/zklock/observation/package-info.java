/**
 * Micrometer Observation of lock acquisitions: the context and its convention.
 */
@NullMarked
package io.zklock.observation;

import org.jspecify.annotations.NullMarked;
