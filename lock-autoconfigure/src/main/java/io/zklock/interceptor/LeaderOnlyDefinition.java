package io.zklock.interceptor;

/**
 * The validated {@link io.zklock.annotation.LeaderOnly} of one method.
 *
 * @param role the role, normalised as a lock path (no leading {@code '/'})
 * @param returnKind how the method's result completes: a {@code Mono} or {@code Flux} is checked
 * when subscribed
 * @param methodDescription the method, as {@code Type.method(Params)}, for messages
 */
record LeaderOnlyDefinition(String role, ReturnKind returnKind, String methodDescription) {
}
