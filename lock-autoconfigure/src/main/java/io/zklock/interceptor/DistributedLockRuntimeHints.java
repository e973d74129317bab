package io.zklock.interceptor;

import org.jspecify.annotations.Nullable;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.DistributedLocks;
import io.zklock.annotation.DistributedSemaphore;
import io.zklock.annotation.LeaderOnly;
import io.zklock.annotation.LeaderScoped;
import io.zklock.annotation.SkippedCall;
import io.zklock.annotation.SkippedCallListener;
import io.zklock.lock.event.LockListener;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;

/**
 * The {@link RuntimeHints} of what zklock's annotation support reads reflectively, for
 * ahead-of-time processing (a native image, or {@code -Dspring.aot.enabled=true} on the JVM);
 * registered in {@code META-INF/spring/aot.factories}:
 * <ul>
 * <li>the annotations {@link DistributedLock}, {@link DistributedLocks},
 * {@link DistributedSemaphore}, {@link LeaderOnly} and {@link LeaderScoped}: their attributes, and
 * the proxies Spring synthesizes for merged (meta-)annotations;</li>
 * <li>the root object of lock key expressions ({@code #root.method}, {@code #root.args},
 * {@code #root.target});</li>
 * <li>the listener types zklock calls on application beans ({@link LockListener},
 * {@link SkippedCallListener}, and {@link SkippedCall}, which listeners read);</li>
 * <li>the optional types it looks up by name (Reactor's {@code Mono}, kotlinx-coroutines-reactor
 * for suspend functions, Spring's transaction synchronization).</li>
 * </ul>
 * The properties the advisor's configuration binds from the environment itself have their hints
 * from the auto-configuration ({@code io.zklock.autoconfigure.ZkLockPropertiesRuntimeHints}).
 * Key expressions that navigate the application's own argument types ({@code #order.id})
 * need hints for those types from the application, as for any SpEL.
 */
class DistributedLockRuntimeHints implements RuntimeHintsRegistrar {

	private static final Class<?>[] ANNOTATIONS = { DistributedLock.class, DistributedLocks.class,
			DistributedSemaphore.class, LeaderOnly.class, LeaderScoped.class };

	private static final String[] OPTIONAL_TYPES = { "reactor.core.publisher.Mono", "reactor.core.publisher.Flux",
			"kotlinx.coroutines.reactor.MonoKt",
			"org.springframework.transaction.support.TransactionSynchronizationManager" };

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		for (Class<?> annotation : ANNOTATIONS) {
			hints.reflection().registerType(annotation, MemberCategory.INVOKE_DECLARED_METHODS);
			hints.proxies().registerJdkProxy(annotation);
		}
		hints.reflection().registerType(LockKeyResolver.RootObject.class, MemberCategory.INVOKE_PUBLIC_METHODS);
		hints.reflection().registerType(LockListener.class, MemberCategory.INVOKE_PUBLIC_METHODS);
		hints.reflection().registerType(SkippedCallListener.class, MemberCategory.INVOKE_PUBLIC_METHODS);
		hints.reflection().registerType(SkippedCall.class, MemberCategory.INVOKE_PUBLIC_METHODS);
		for (String type : OPTIONAL_TYPES) {
			hints.reflection().registerType(TypeReference.of(type));
		}
	}

}
