package io.zklock.interceptor;

import org.jspecify.annotations.Nullable;
import org.springframework.expression.Expression;

/**
 * An annotation's path and key, before the key is evaluated.
 *
 * @param path the path from the annotation, without a leading {@code '/'}
 * @param key the parsed key expression, or {@code null} for none
 * @param keySource the key expression's text, for messages
 */
record KeyedPath(String path, @Nullable Expression key, String keySource) {

}
