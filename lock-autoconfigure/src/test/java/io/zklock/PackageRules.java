package io.zklock;

import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The package rules of the Spring module (lock-autoconfigure), for a root package and its
 * packages: the contract ({@code annotation}: what a user writes) below the machinery
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
