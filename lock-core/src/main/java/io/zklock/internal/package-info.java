/**
 * What zklock's own modules share below their APIs: lock-path syntax and its escaping
 * ({@link io.zklock.internal.LockPaths}), the holder line a lock node carries
 * ({@link io.zklock.internal.LockNodeData}) and the way messages write a duration
 * ({@link io.zklock.internal.Durations}). Internal: not part of zklock's API and no compatibility
 * promise. zklock's modules (the lock engine, leadership, the Spring Boot module, Spring
 * Integration's registry) may use it, an application must not, and no public signature of an API
 * package names a type of it, as OkHttp's sibling modules use {@code okhttp3.internal}. It imports no
 * other zklock package, so that every package can stand on it.
 *
 * <p>
 * Every type of this package is thread-safe (stateless). Types of this package are non-null unless
 * marked {@link org.jspecify.annotations.Nullable}.
 */
@NullMarked
package io.zklock.internal;

import org.jspecify.annotations.NullMarked;
