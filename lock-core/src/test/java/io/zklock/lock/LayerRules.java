package io.zklock.lock;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The layer rules of lock-core, for an API package and its two sub-packages: {@code internal}
 * (the machinery) and {@code inspection} (a lock path's queue as ZooKeeper has it, for the
 * actuator endpoint and tests, built on the machinery). Built for any root package so that {@code LayerRulesTests} can show each rule
 * failing on a fixture that breaks it.
 */
final class LayerRules {

	private final String api;

	private final String inspection;

	private final String internal;

	LayerRules(String api) {
		this.api = api;
		this.inspection = api + ".inspection";
		this.internal = api + ".internal";
	}

	/**
	 * No type of the API's sub-packages (the engine) appears in a public signature of the API: the
	 * API may construct and call its engine, but what a user compiles against never names it
	 * (OkHttp's rule for its {@code internal} packages). Checked on the compiled classes: the
	 * supertypes, public and protected fields, constructors and methods (parameters, return types
	 * with their type arguments, exceptions) of the API's public types.
	 */
	ArchRule apiSignaturesNameNoEngineType() {
		return classes().that()
			.resideInAPackage(this.api)
			.and()
			.arePublic()
			.should(new NoEngineTypeInSignatures(this.api))
			.because("users compile against the API (" + this.api + "); the engine below it is free to change");
	}

	/**
	 * No public signature of this API names a type of a lower API's sub-packages (its engine): an
	 * API built on another, as leadership on the lock engine, exposes the lower API's types only.
	 */
	ArchRule apiSignaturesNameNoEngineTypeOf(String lowerApi) {
		return classes().that()
			.resideInAPackage(this.api)
			.and()
			.arePublic()
			.should(new NoEngineTypeInSignatures(lowerApi))
			.because("users compile against the APIs; the engine below " + lowerApi + " is free to change");
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

	/** No class depends on a class of {@code packagePattern} (ArchUnit's package syntax, such as {@code "org.springframework.."}). */
	static ArchRule noDependencyOn(String packagePattern) {
		return noClasses().should().dependOnClassesThat().resideInAPackage(packagePattern);
	}

	/**
	 * The engine's packages (the API's sub-packages) depend on each other in no cycle. The API and
	 * its engine use each other by design: the API constructs its engine and the engine implements
	 * and returns the API's types, as OkHttp's {@code okhttp3} and {@code okhttp3.internal} do; what
	 * keeps them apart is {@link #apiSignaturesNameNoEngineType()}.
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

	/** Reports each public member of an API type whose signature names an engine type. */
	private static final class NoEngineTypeInSignatures extends ArchCondition<JavaClass> {

		/** The API whose sub-packages are the engine. */
		private final String api;

		NoEngineTypeInSignatures(String api) {
			super("name no type of " + api + "'s sub-packages in a public signature");
			this.api = api;
		}

		@Override
		public void check(JavaClass javaClass, ConditionEvents events) {
			List<JavaType> supertypes = new ArrayList<>(javaClass.getInterfaces());
			javaClass.getSuperclass().ifPresent(supertypes::add);
			report(javaClass, javaClass.getName() + " extends or implements", supertypes, events);
			for (JavaField field : javaClass.getFields()) {
				if (isVisible(field.getModifiers())) {
					report(javaClass, field.getFullName(), List.of(field.getType()), events);
				}
			}
			for (JavaCodeUnit unit : javaClass.getCodeUnits()) {
				if (!isVisible(unit.getModifiers()) || unit.getName().startsWith("lambda$")) {
					continue;
				}
				List<JavaType> types = new ArrayList<>(unit.getParameterTypes());
				types.add(unit.getReturnType());
				unit.getThrowsClause().getTypes().forEach(types::add);
				report(javaClass, unit.getFullName(), types, events);
			}
		}

		private void report(JavaClass owner, String where, List<? extends JavaType> types, ConditionEvents events) {
			Set<String> engine = new TreeSet<>();
			for (JavaType type : types) {
				for (JavaClass involved : type.getAllInvolvedRawTypes()) {
					String name = involved.getBaseComponentType().getPackageName();
					if (name.startsWith(this.api + ".")) {
						engine.add(involved.getBaseComponentType().getName());
					}
				}
			}
			if (!engine.isEmpty()) {
				events.add(SimpleConditionEvent.violated(owner, where + " names " + String.join(", ", engine)));
			}
		}

		private static boolean isVisible(Set<JavaModifier> modifiers) {
			return modifiers.contains(JavaModifier.PUBLIC) || modifiers.contains(JavaModifier.PROTECTED);
		}

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
