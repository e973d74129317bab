package io.zklock.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the annotated method only on the leader of a role: only while this instance holds an active
 * term of the role ({@code io.zklock.leadership.Term#isActive()}, read at each call, no ZooKeeper
 * request). On every other instance, and on this one while it follows, stands down or is in
 * jeopardy, the call is skipped as a {@code @DistributedLock(onFailure = SKIP)} call is: it returns
 * {@code null} (also for {@code void}), {@code Optional.empty()}, a stage completed with
 * {@code null}, or an empty {@code Mono} or {@code Flux}; it is logged at DEBUG and told to
 * {@link SkippedCallListener} beans ({@link SkippedCall.Reason#NOT_LEADER}, the {@code zklock.skipped}
 * meter with {@code mode=leader}).
 *
 * <pre class="code">
 * &#064;Scheduled(fixedDelay = 60_000)
 * &#064;LeaderOnly("billing-close")
 * public void closeTheDay() {
 *     long token = LeaderContext.currentToken();   // the term's fencing token
 *     ledger.close(today(), token);                // a fenced store refuses an older term's token
 * }
 * </pre>
 *
 * Declaring the role is enough: at start-up the application joins it as a candidate (the role's
 * lock path is {@code <zklock.leadership.root-path>/<role>}), unless
 * {@code zklock.leadership.roles.<role>.candidate=false} or {@code zklock.leadership.candidate=false}
 * say this instance never leads it (its calls are then always skipped). Inside the method,
 * {@link LeaderContext#currentTerm()} gives the term and {@link LeaderContext#currentToken()} its
 * fencing token. The check is made when the call starts (for a {@code Mono} or {@code Flux}, when
 * it is subscribed); the method is not interrupted if the term ends while it runs, so check the term
 * before each write, or pass its token to a store that refuses older tokens.
 *
 * <p>
 * Refused at start-up, with a message naming the method and the fix: a role that is not a valid lock
 * path, a private or static method, a final method or class (the class-based proxy cannot override
 * it), and a primitive return type other than {@code void} (a skipped call has no value to return).
 * The interceptor runs just outside {@link DistributedLock}'s ({@code zklock.aspect-order} minus
 * one), so a follower skips the call before it would wait for a lock, and outside
 * {@code @Transactional}. It works on Spring beans only, through their proxies: a call from the same
 * object bypasses it. It may be used as a meta-annotation. With {@code zklock.enabled=false} the
 * annotation is not applied: the method runs on every instance, without a term.
 */
@Target({ ElementType.METHOD, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface LeaderOnly {

	/**
	 * The role, a lock path under the leadership root ({@code zklock.leadership.root-path},
	 * {@code /leaders} unless set), such as {@code "billing-close"} or {@code "billing/close"}.
	 * @return the role
	 */
	String value();

}
