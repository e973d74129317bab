/**
 * Auto-configuration of zklock's health indicator (Spring Boot 4).
 */
@NullMarked
package io.zklock.autoconfigure.health;

import org.jspecify.annotations.NullMarked;
