package io.zklock.lock;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import io.zklock.fixtures.PublicSignatures;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The layer rules of lock-core, for an API package and its three sub-packages: {@code event} (what
 * happens to the locks and what is held: API, a vocabulary on the API package alone),
 * {@code inspection} (a lock path's queue as ZooKeeper has it, for operators and tests: API, built on
 * the machinery) and {@code internal} (the machinery: no compatibility promise). The one rule about
 * what users see is OkHttp's: no public signature outside an {@code internal} package names a type
 * of one ({@code io.zklock.internal}, the helpers zklock's modules share, included). Built for any
 * root package so that {@code LayerRulesTests} can show each rule failing on a fixture that breaks it.
 */
final class LayerRules {

	private final String api;

	private final String event;

	private final String inspection;

	private final String internal;

	LayerRules(String api) {
		this.api = api;
		this.event = api + ".event";
		this.inspection = api + ".inspection";
		this.internal = api + ".internal";
	}

	/**
	 * No type of an {@code internal} package appears in a public signature of the API or its public
	 * sub-packages: the API may construct and call its machinery, but what a user compiles against
	 * never names it (OkHttp's rule for its {@code internal} packages). This covers the machinery of an
	 * API below (leadership's signatures never name the lock engine's) and the shared helpers of
	 * {@code io.zklock.internal}.
	 */
	ArchRule publicSignaturesNameNoInternalType() {
		return classes().that()
			.resideInAPackage(this.api + "..")
			.and(not(resideInAPackage("..internal..")))
			.and()
			.arePublic()
			.should(PublicSignatures.nameNoTypeOf("an internal package", PublicSignatures::isInternal))
			.because("users compile against the API (" + this.api + "); the machinery below it is free to change");
	}

	/**
	 * This API and its sub-packages use a lower API and its inspection, never the lower API's
	 * machinery: what is built on an engine goes through the surface the engine promises.
	 */
	ArchRule usesNoMachineryOf(String lowerApi) {
		return noClasses().that()
			.resideInAPackage(this.api + "..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage(lowerApi + ".internal..")
			.because(this.api + " is built on " + lowerApi + "'s API and inspection, which keep their promises; "
					+ "its machinery keeps none");
	}

	/** A lower API and its sub-packages know nothing of this API: dependencies go one way. */
	ArchRule isUnknownTo(String lowerApi) {
		return noClasses().that()
			.resideInAPackage(lowerApi + "..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage(this.api + "..")
			.because(this.api + " is built on " + lowerApi + ", not the other way round");
	}

	/** The machinery imports the API only, never the inspection built on it. */
	ArchRule internalImportsNoInspection() {
		return noClasses().that()
			.resideInAPackage(this.internal + "..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage(this.inspection + "..")
			.because("the inspection of queues is built on the machinery, not part of it");
	}

	/**
	 * The events are a vocabulary on the API alone: they import none of its other sub-packages, so
	 * that the machinery can report in them and listeners need nothing else.
	 */
	ArchRule eventImportsTheApiOnly() {
		return noClasses().that()
			.resideInAPackage(this.event + "..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(this.internal + "..", this.inspection + "..")
			.because("listeners compile against the API and its events only");
	}

	/**
	 * The helpers every package of the root may use ({@code io.zklock.internal}) import no other package
	 * of the root: they stand below everything.
	 */
	static ArchRule helpersImportNothingAbove(String helpers, String root) {
		return noClasses().that()
			.resideInAPackage(helpers + "..")
			.should()
			.dependOnClassesThat(resideInAPackage(root + "..").and(not(resideInAPackage(helpers + ".."))))
			.because(helpers + " is shared by every module of " + root + ", so it stands below all of them");
	}

	/** No class depends on a class of {@code packagePattern} (ArchUnit's package syntax, such as {@code "org.springframework.."}). */
	static ArchRule noDependencyOn(String packagePattern) {
		return noClasses().should().dependOnClassesThat().resideInAPackage(packagePattern);
	}

	/**
	 * The API's sub-packages depend on each other in no cycle. The API and its sub-packages use each
	 * other by design: the API constructs its engine and names its events, the engine implements and
	 * returns the API's types, as OkHttp's {@code okhttp3} and {@code okhttp3.internal} do; what keeps
	 * the machinery out of sight is {@link #publicSignaturesNameNoInternalType()}.
	 */
	ArchRule noPackageCycles() {
		String root = this.api;
		SliceAssignment byPackage = new SliceAssignment() {

			@Override
			public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
				String name = javaClass.getPackageName();
				return name.startsWith(root + ".") ? SliceIdentifier.of(name) : SliceIdentifier.ignore();
			}

			@Override
			public String getDescription() {
				return "sub-packages of " + root;
			}

		};
		return slices().assignedFrom(byPackage).should().beFreeOfCycles();
	}

	/**
	 * No two top-level classes of the engine ({@code inspection} and {@code internal}) depend on each
	 * other both ways; nested, inner and anonymous classes count as their top-level class.
	 */
	ArchRule noMutualEngineClasses() {
		return classes().that(resideInAnyPackage(this.inspection + "..", this.internal + ".."))
			.should(new NoMutualDependency(this.inspection, this.internal))
			.because("a pair that calls each other both ways is one class in two files, or needs a small "
					+ "interface owned by the lower side");
	}

	/** The owner's name of a class: the class itself, or the top-level class that encloses it. */
	static String topLevelName(JavaClass javaClass) {
		JavaClass owner = javaClass;
		Optional<JavaClass> enclosing = owner.getEnclosingClass();
		while (enclosing.isPresent()) {
			owner = enclosing.get();
			enclosing = owner.getEnclosingClass();
		}
		return owner.getName();
	}

	/** Reports each pair of top-level engine classes that depend on each other, once. */
	private static final class NoMutualDependency extends ArchCondition<JavaClass> {

		private final String[] enginePackages;

		private final Map<String, Set<String>> dependencies = new HashMap<>();

		NoMutualDependency(String... enginePackages) {
			super("not depend on another top-level engine class that depends on them");
			this.enginePackages = enginePackages;
		}

		@Override
		public void init(Collection<JavaClass> allObjectsToTest) {
			this.dependencies.clear();
			for (JavaClass origin : allObjectsToTest) {
				Set<String> targets = this.dependencies.computeIfAbsent(topLevelName(origin), (name) -> new TreeSet<>());
				for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
					JavaClass target = dependency.getTargetClass().getBaseComponentType();
					if (isEngine(target)) {
						targets.add(topLevelName(target));
					}
				}
			}
		}

		@Override
		public void check(JavaClass javaClass, ConditionEvents events) {
			String self = javaClass.getName();
			if (!self.equals(topLevelName(javaClass))) {
				// a nested class: its dependencies were folded into its top-level class
				return;
			}
			Set<String> reported = new HashSet<>();
			for (String other : this.dependencies.getOrDefault(self, Set.of())) {
				boolean mutual = !other.equals(self)
						&& this.dependencies.getOrDefault(other, Set.of()).contains(self);
				if (mutual && self.compareTo(other) < 0 && reported.add(other)) {
					events.add(SimpleConditionEvent.violated(javaClass,
							self + " and " + other + " depend on each other both ways"));
				}
			}
		}

		private boolean isEngine(JavaClass javaClass) {
			String name = javaClass.getPackageName();
			for (String engine : this.enginePackages) {
				if (name.equals(engine) || name.startsWith(engine + ".")) {
					return true;
				}
			}
			return false;
		}

	}

}
