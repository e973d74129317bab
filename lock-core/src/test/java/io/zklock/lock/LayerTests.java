package io.zklock.lock;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The layers of lock-core, kept true: no public signature of the API ({@code io.zklock.lock})
 * names a type of its sub-packages (the API may use its engine, users never see it); the
 * machinery ({@code internal}) imports the API only, never the inspection; no cycle among the engine's
 * packages; no two engine classes depend on each other both ways; no Spring anywhere in
 * lock-core. Leadership ({@code io.zklock.leadership}) follows the same rules with its own machinery,
 * and is built on the lock API and its inspection only: no public signature of it names a type of
 * either engine, its packages never use the lock engine's machinery, and the lock packages know
 * nothing of it. {@link LayerRulesTests} shows each rule failing on a fixture that breaks it.
 */
class LayerTests {

	private static final LayerRules RULES = new LayerRules("io.zklock.lock");

	private static final LayerRules LEADERSHIP = new LayerRules("io.zklock.leadership");

	private static JavaClasses main;

	/** Leadership and the lock packages it is built on. */
	private static JavaClasses withLeadership;

	@BeforeAll
	static void importClasses() {
		main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.importPackages("io.zklock.lock");
		// an empty import would let every rule pass
		assertThat(main.stream().map((javaClass) -> javaClass.getPackageName()).distinct())
			.containsExactlyInAnyOrder("io.zklock.lock", "io.zklock.lock.inspection", "io.zklock.lock.internal");
		withLeadership = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.importPackages("io.zklock.lock", "io.zklock.leadership");
		assertThat(withLeadership.stream().map((javaClass) -> javaClass.getPackageName()).distinct())
			.contains("io.zklock.leadership", "io.zklock.leadership.internal", "io.zklock.lock.inspection");
	}

	@Test
	void shouldNameNoEngineTypeInAPublicSignatureOfTheApi() {
		RULES.apiSignaturesNameNoEngineType().check(main);
	}

	@Test
	void shouldKeepTheMachineryBelowTheInspection() {
		RULES.internalImportsNoInspection().check(main);
	}

	@Test
	void shouldHaveNoPackageCycle() {
		RULES.noPackageCycles().check(main);
	}

	@Test
	void shouldHaveNoEngineClassesThatDependOnEachOtherBothWays() {
		RULES.noMutualEngineClasses().check(main);
	}

	@Test
	void shouldNameNoEngineTypeInAPublicSignatureOfTheLeadershipApi() {
		LEADERSHIP.apiSignaturesNameNoEngineType().check(withLeadership);
		LEADERSHIP.apiSignaturesNameNoEngineTypeOf("io.zklock.lock").check(withLeadership);
	}

	@Test
	void shouldBuildLeadershipOnTheLockApiAndItsInspectionOnly() {
		LEADERSHIP.usesNoMachineryOf("io.zklock.lock").check(withLeadership);
	}

	@Test
	void shouldKeepTheLockPackagesUnawareOfLeadership() {
		LEADERSHIP.isUnknownTo("io.zklock.lock").check(withLeadership);
	}

	@Test
	void shouldHaveNoCycleAndNoMutualClassesInTheLeadershipMachinery() {
		LEADERSHIP.noPackageCycles().check(withLeadership);
		LEADERSHIP.noMutualEngineClasses().check(withLeadership);
	}

	@Test
	void shouldHaveNoSpringImportInMainOrTestCode() {
		JavaClasses all = new ClassFileImporter().importPackages("io.zklock");
		LayerRules.noDependencyOn("org.springframework..").check(all);
	}

}
