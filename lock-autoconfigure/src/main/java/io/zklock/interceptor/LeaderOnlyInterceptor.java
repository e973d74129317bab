package io.zklock.interceptor;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.zklock.annotation.LeaderOnly;
import io.zklock.annotation.SkippedCall;
import io.zklock.annotation.support.LeaderContextHolder;
import io.zklock.leadership.Candidacy;
import io.zklock.leadership.CandidacyState;
import io.zklock.leadership.LeaderElection;
import io.zklock.leadership.Term;

import org.springframework.aop.ProxyMethodInvocation;

/**
 * Runs {@link LeaderOnly} methods only while this instance holds an active term of their role,
 * read at each call ({@link Term#isActive()}: no ZooKeeper request), with the term in
 * {@link io.zklock.annotation.LeaderContext} while the method runs; skips them otherwise, returning
 * the empty value of their return type. A {@code Mono} or {@code Flux} method is checked when it is
 * subscribed, each subscription on its own.
 */
final class LeaderOnlyInterceptor implements MethodInterceptor {

	private static final Log logger = LogFactory.getLog(LeaderOnlyInterceptor.class);

	private final LeaderOnlyDefinitionSource definitions;

	private final Supplier<? extends @Nullable LeaderElection> elections;

	private final Consumer<SkippedCall> skipped;

	private volatile @Nullable LeaderElection election;

	LeaderOnlyInterceptor(LeaderOnlyDefinitionSource definitions, Supplier<? extends @Nullable LeaderElection> elections,
			Consumer<SkippedCall> skipped) {
		this.definitions = definitions;
		this.elections = elections;
		this.skipped = skipped;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		Method method = SpecificMethods.of(invocation);
		Optional<LeaderOnlyDefinition> found = this.definitions.find(method);
		if (found.isEmpty()) {
			return invocation.proceed();
		}
		LeaderOnlyDefinition definition = found.get();
		return switch (definition.returnKind()) {
			case MONO, FLUX -> {
				ProxyMethodInvocation deferred = (ProxyMethodInvocation) ((ProxyMethodInvocation) invocation)
					.invocableClone();
				yield LeaderOnlyReactive.defer(definition.returnKind(), () -> {
					Term term = activeTerm(definition);
					if (term == null) {
						return null;
					}
					return runUnder(term, (ProxyMethodInvocation) deferred.invocableClone());
				});
			}
			case SYNC, COMPLETION_STAGE -> {
				Term term = activeTerm(definition);
				yield (term != null) ? runUnder(term, invocation)
						: ReturnKind.skippedValue(method.getReturnType());
			}
		};
	}

	private static @Nullable Object runUnder(Term term, MethodInvocation invocation) throws Throwable {
		LeaderContextHolder.push(term);
		try {
			return invocation.proceed();
		}
		finally {
			LeaderContextHolder.pop();
		}
	}

	/**
	 * The active term of the definition's role, or {@code null} after telling the skipped-call
	 * listeners that the call is skipped.
	 */
	private @Nullable Term activeTerm(LeaderOnlyDefinition definition) {
		LeaderElection election = election();
		Optional<Candidacy> candidacy = (election != null) ? election.candidacy(definition.role()) : Optional.empty();
		Term term = candidacy.flatMap(Candidacy::currentTerm).orElse(null);
		if (term != null && term.isActive()) {
			return term;
		}
		if (logger.isDebugEnabled()) {
			logger.debug("Skipped " + definition.methodDescription() + ": this instance does not lead role '"
					+ definition.role() + "' ("
					+ candidacy.map(Candidacy::state).map(CandidacyState::name).orElse("not a candidate") + ")");
		}
		this.skipped.accept(new SkippedCall(definition.role(), definition.role(), null, Duration.ZERO,
				definition.methodDescription(), SkippedCall.Reason.NOT_LEADER));
		return null;
	}

	private @Nullable LeaderElection election() {
		LeaderElection found = this.election;
		if (found == null) {
			found = this.elections.get();
			this.election = found;
		}
		return found;
	}

}
