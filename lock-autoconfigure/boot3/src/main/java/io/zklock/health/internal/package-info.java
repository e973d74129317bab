/**
 * The connection check both of zklock's health indicators share (Spring Boot 4's and 3.5's),
 * free of Spring Boot types. Internal: no compatibility promise. zklock-spring-boot's jar carries
 * these classes; its own package-info of this package is the one the jar keeps.
 */
@NullMarked
package io.zklock.health.internal;

import org.jspecify.annotations.NullMarked;
