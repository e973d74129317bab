package io.zklock;

import com.tngtech.archunit.lang.ArchRule;
import io.zklock.fixtures.PublicSignatures;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The package rules of the Spring module (lock-autoconfigure), for a root package and its
 * packages. What users see: no public signature of a package with a compatibility promise names
 * zklock's machinery (an {@code internal} package, the interceptor or the annotation's support), and
 * nothing here uses the machinery of zklock-core's engines (the shared helpers of
 * {@code io.zklock.internal} are allowed). The layers: the contract ({@code annotation}: what a user writes) below the machinery
 * ({@code interceptor}: the advisor and everything it runs) below the auto-configuration
 * ({@code autoconfigure} and its sub-packages: the wiring); the optional parts ({@code health},
 * {@code metrics}, {@code endpoint}, {@code observation}, {@code fencing}, and the leadership events
 * of {@code leadership.event}) beside the machinery,
 * seeing the contract only and never each other. Dependencies run one way, downwards:
 * contract ← machinery ← auto-configuration. Built for any root so that
 * {@code PackageRulesTests} can show each rule failing on a fixture that breaks it.
 */
final class PackageRules {

	private static final String[] PARTS = { "health", "metrics", "endpoint", "observation", "fencing",
			"leadership.event" };

	private final String root;

	PackageRules(String root) {
		this.root = root;
	}

	/**
	 * No class uses an engine's machinery ({@code enginePackages}, such as
	 * {@code "io.zklock.lock.internal.."}): the module is built on zklock-core's APIs and on the helpers
	 * zklock's modules share, which keep still while an engine changes.
	 */
	ArchRule usesNoEngineMachinery(String... enginePackages) {
		return noClasses().that()
			.resideInAPackage(this.root + "..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(enginePackages)
			.because("an engine's machinery keeps no promise, even to zklock's own modules");
	}

	/**
	 * No public signature of a package with a compatibility promise names zklock's machinery: a type of
	 * an {@code internal} package, of the interceptor or of the annotation's support (OkHttp's rule,
	 * as lock-core's {@code LayerRules} holds it).
	 */
	ArchRule publicSignaturesNameNoMachinery() {
		String interceptor = this.root + ".interceptor";
		String support = this.root + ".annotation.support";
		return classes().that()
			.resideInAPackage(this.root + "..")
			.and(not(resideInAnyPackage(interceptor + "..", support + "..", "..internal..")))
			.and()
			.arePublic()
			.should(PublicSignatures.nameNoTypeOf("zklock's machinery (internal, interceptor, annotation support)",
					(name) -> PublicSignatures.isInternal(name) || isIn(name, interceptor) || isIn(name, support)))
			.because("users compile against the promised packages; the machinery is free to change");
	}

	private static boolean isIn(String name, String packageName) {
		return name.equals(packageName) || name.startsWith(packageName + ".");
	}

	/** Contract ← machinery and optional parts ← auto-configuration, and nothing back up. */
	ArchRule layers() {
		return layeredArchitecture().consideringOnlyDependenciesInLayers()
			.layer("Contract")
			.definedBy(this.root + ".annotation..")
			.layer("Machinery")
			.definedBy(this.root + ".interceptor..")
			.layer("Parts")
			.definedBy(parts())
			.layer("AutoConfiguration")
			.definedBy(this.root + ".autoconfigure..")
			.whereLayer("AutoConfiguration")
			.mayNotBeAccessedByAnyLayer()
			.whereLayer("Machinery")
			.mayOnlyBeAccessedByLayers("AutoConfiguration")
			.whereLayer("Parts")
			.mayOnlyBeAccessedByLayers("AutoConfiguration")
			.whereLayer("Contract")
			.mayOnlyBeAccessedByLayers("Machinery", "Parts", "AutoConfiguration")
			.because("what a user writes knows no machinery, and the machinery knows no wiring");
	}

	/** The optional parts do not depend on each other: each can be left out alone. */
	ArchRule partsApart() {
		return slices().matching(this.root + ".(" + String.join("|", PARTS) + ")..")
			.should()
			.notDependOnEachOther()
			.because("each optional part is wired, or not, on its own");
	}

	/** The module's packages depend on each other in no cycle. */
	ArchRule noCycles() {
		return slices().matching(this.root + ".(*)..").should().beFreeOfCycles();
	}

	private String[] parts() {
		String[] packages = new String[PARTS.length];
		for (int i = 0; i < PARTS.length; i++) {
			packages[i] = this.root + "." + PARTS[i] + "..";
		}
		return packages;
	}

}
