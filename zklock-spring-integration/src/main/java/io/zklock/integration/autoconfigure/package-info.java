/**
 * Auto-configuration of zklock's Spring Integration support.
 */
@NullMarked
package io.zklock.integration.autoconfigure;

import org.jspecify.annotations.NullMarked;
