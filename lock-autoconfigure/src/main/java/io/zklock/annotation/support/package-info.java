/**
 * Where zklock's interceptor keeps the locks of the annotated calls running, for
 * {@link io.zklock.annotation.LockContext} and {@link io.zklock.annotation.ReactiveLockContext} to
 * read: below both the annotation package, which applications use, and the interceptor package,
 * which writes them. Applications read the lock context through the annotation package.
 *
 * <p>
 * Types of this package are non-null unless marked {@link org.jspecify.annotations.Nullable}.
 */
@NullMarked
package io.zklock.annotation.support;

import org.jspecify.annotations.NullMarked;
