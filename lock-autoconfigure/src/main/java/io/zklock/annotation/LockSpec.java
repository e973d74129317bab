package io.zklock.annotation;

import io.zklock.lock.LockMode;

import org.springframework.expression.Expression;

/**
 * One lock of an annotated method, before its key is evaluated.
 *
 * @param path the lock path from the annotation, without a leading {@code '/'}
 * @param key the parsed key expression, or {@code null} for none
 * @param keySource the key expression's text, for messages
 * @param mode the lock mode ({@code null} for a semaphore)
 */
record LockSpec(String path, Expression key, String keySource, LockMode mode) {

}
