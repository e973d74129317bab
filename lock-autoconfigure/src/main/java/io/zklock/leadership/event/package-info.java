/**
 * The Spring application events of zklock's leader election, published by zklock's Spring Boot
 * support for each role this application is a candidate for:
 * {@link io.zklock.leadership.event.LeadershipGrantedEvent},
 * {@link io.zklock.leadership.event.LeadershipRevokedEvent} and
 * {@link io.zklock.leadership.event.LeaderChangedEvent}. Listen with {@code @EventListener}. They
 * are published on the election's listener thread of the role, in the order things happened, one
 * transition of a role at a time; a listener that blocks delays only the later events of its role,
 * never a revocation ({@code Term.isActive()} turns {@code false} before anyone is told). Spring
 * Integration's {@code OnGrantedEvent} and {@code OnRevokedEvent} are published too when Spring
 * Integration is on the class path.
 *
 * <p>
 * Types of this package are non-null unless marked {@link org.jspecify.annotations.Nullable}.
 */
@NullMarked
package io.zklock.leadership.event;

import org.jspecify.annotations.NullMarked;
