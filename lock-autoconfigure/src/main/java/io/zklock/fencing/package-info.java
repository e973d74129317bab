/**
 * The resource side of fencing: {@link io.zklock.fencing.JdbcFencingTokens} refuses a write to
 * a JDBC database whose fencing token is older than one the resource has accepted
 * ({@code spring-jdbc} on the classpath).
 */
@NullMarked
package io.zklock.fencing;

import org.jspecify.annotations.NullMarked;
