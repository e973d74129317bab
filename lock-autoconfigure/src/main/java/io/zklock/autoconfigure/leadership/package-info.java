/**
 * Auto-configuration of zklock's leader election ({@code zklock.leadership.*}): the
 * {@link io.zklock.leadership.LeaderElection} bean, the candidacies of the roles the application
 * declares, joined when the context starts and left, handing each role over, when it stops; the
 * {@link io.zklock.annotation.LeaderOnly} advisor; leader-scoped lifecycle beans
 * ({@link io.zklock.annotation.LeaderScoped}); the application events of
 * {@code io.zklock.leadership.event} and, with Spring Integration, its leader events.
 */
@NullMarked
package io.zklock.autoconfigure.leadership;

import org.jspecify.annotations.NullMarked;
