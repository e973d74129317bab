/**
 * Spring Boot service connections to a ZooKeeper in a container: a
 * {@code @ServiceConnection} Testcontainers container or a Docker Compose service of the
 * official {@code zookeeper} image gives zklock's client its
 * {@link io.zklock.autoconfigure.ZkLockConnectionDetails}. Registered in
 * {@code META-INF/spring.factories}; each factory is used only when the application has
 * {@code spring-boot-testcontainers} or {@code spring-boot-docker-compose}.
 */
@NullMarked
package io.zklock.autoconfigure.serviceconnection;

import org.jspecify.annotations.NullMarked;
