package io.zklock.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a lifecycle bean whose work only the leader of a role may do, such as a message listener
 * container or a scheduler: zklock starts it when this instance is granted a term of the role and
 * stops it when the term is revoked, before the revocation completes. On a {@code @Component} class
 * or a {@code @Bean} method:
 *
 * <pre class="code">
 * &#064;Bean
 * &#064;LeaderScoped("billing-close")
 * SimpleMessageListenerContainer invoiceListener(ConnectionFactory connectionFactory) {
 *     SimpleMessageListenerContainer container = new SimpleMessageListenerContainer(connectionFactory);
 *     container.setAutoStartup(false);   // the leader starts it, not the application context
 *     …
 *     return container;
 * }
 * </pre>
 *
 * <ul>
 * <li>The bean must be a {@code org.springframework.context.Lifecycle}, and a
 * {@code SmartLifecycle} must not start itself ({@code isAutoStartup()} {@code false}); otherwise
 * start-up fails naming the bean.</li>
 * <li>At a grant (also when a term resumes after jeopardy) the role's beans start in phase order,
 * the lowest first; at a revocation they stop in the reverse order, each phase's beans together, all
 * within {@code zklock.leadership.handover-timeout}. When the application yields or steps down, or at
 * shutdown, the role's lock node is deleted only after they stopped (or the time-out ran out): the
 * next leader starts after this one's work stopped, within a round trip of it. A revocation in
 * jeopardy (a suspended connection, an expired lease) stops them at once too, but the term is over
 * for leader-only work already: {@code Term.isActive()} turned {@code false} before they are told.</li>
 * <li>Declaring the role is enough: the application joins it as a candidate, as for
 * {@link LeaderOnly}. Beans that are not annotated (such as a listener container registry that
 * Spring creates) are named with {@code zklock.leadership.roles.<role>.leader-scoped-beans}.</li>
 * </ul>
 * The idea is Spring Integration's {@code SmartLifecycleRoleController} and its {@code @Role}; with
 * Spring Integration on the class path zklock publishes its leader events too, so that controller
 * starts and stops the endpoints of a role as well.
 */
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface LeaderScoped {

	/**
	 * The role, a lock path under the leadership root, such as {@code "billing-close"}.
	 * @return the role
	 */
	String value();

}
