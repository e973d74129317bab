/**
 * Where zklock's interceptors keep the locks and terms of the annotated calls running, for
 * {@link io.zklock.annotation.LockContext}, {@link io.zklock.annotation.ReactiveLockContext} and
 * {@link io.zklock.annotation.LeaderContext} to read: below both the annotation package, which applications use, and the interceptor package,
 * which writes them. Applications read these contexts through the annotation package.
 *
 * <p>
 * Types of this package are non-null unless marked {@link org.jspecify.annotations.Nullable}.
 */
@NullMarked
package io.zklock.annotation.support;

import org.jspecify.annotations.NullMarked;
