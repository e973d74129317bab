package io.zklock.lock;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The layers of lock-core, kept true: no public signature outside an {@code internal} package names
 * a type of one (the API may use its engine, users never see it); the events ({@code event}) import
 * the API only; the machinery ({@code internal}) imports the API and the events, never the
 * inspection; no cycle among the API's sub-packages; no two engine classes depend on each other both
 * ways; the helpers zklock's modules share ({@code io.zklock.internal}) import no other zklock
 * package; no Spring anywhere in lock-core. Leadership ({@code io.zklock.leadership}) follows the
 * same rules with its own machinery, and is built on the lock API, its events and its inspection
 * only: its packages never use the lock engine's machinery, and the lock packages know nothing of
 * it. {@link LayerRulesTests} shows each rule failing on a fixture that breaks it.
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
			.containsExactlyInAnyOrder("io.zklock.lock", "io.zklock.lock.event", "io.zklock.lock.inspection",
					"io.zklock.lock.internal");
		withLeadership = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.importPackages("io.zklock.lock", "io.zklock.leadership");
		assertThat(withLeadership.stream().map((javaClass) -> javaClass.getPackageName()).distinct())
			.contains("io.zklock.leadership", "io.zklock.leadership.internal", "io.zklock.lock.inspection");
	}

	@Test
	void shouldNameNoInternalTypeInAPublicSignatureOfTheApi() {
		RULES.publicSignaturesNameNoInternalType().check(main);
	}

	@Test
	void shouldKeepTheEventsOnTheApiAlone() {
		RULES.eventImportsTheApiOnly().check(main);
	}

	@Test
	void shouldKeepTheSharedHelpersBelowEveryOtherPackage() {
		JavaClasses helpers = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.importPackages("io.zklock.internal");
		assertThat(helpers).isNotEmpty();
		LayerRules.helpersImportNothingAbove("io.zklock.internal", "io.zklock").check(helpers);
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
	void shouldNameNoInternalTypeInAPublicSignatureOfTheLeadershipApi() {
		LEADERSHIP.publicSignaturesNameNoInternalType().check(withLeadership);
	}

	@Test
	void shouldBuildLeadershipOnTheLockApiItsEventsAndItsInspectionOnly() {
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
