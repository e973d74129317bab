/**
 * The Spring Boot 3.5 auto-configuration of zklock's health indicator. zklock-spring-boot's jar
 * carries these classes; its own package-info of this package is the one the jar keeps.
 */
@NullMarked
package io.zklock.autoconfigure.health;

import org.jspecify.annotations.NullMarked;
