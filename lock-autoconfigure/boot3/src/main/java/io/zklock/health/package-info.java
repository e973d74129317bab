/**
 * zklock's health indicator on Spring Boot 3.5 (the connection check both health indicators share
 * is in {@code io.zklock.health.internal}). zklock-spring-boot's jar carries these classes; its own
 * package-info of this package is the one the jar keeps.
 */
@NullMarked
package io.zklock.health;

import org.jspecify.annotations.NullMarked;
