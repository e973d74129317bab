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
 * lock-core. {@link LayerRulesTests} shows each rule failing on a fixture that breaks it.
 */
class LayerTests {

	private static final LayerRules RULES = new LayerRules("io.zklock.lock");

	private static JavaClasses main;

	@BeforeAll
	static void importClasses() {
		main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.importPackages("io.zklock.lock");
		// an empty import would let every rule pass
		assertThat(main.stream().map((javaClass) -> javaClass.getPackageName()).distinct())
			.containsExactlyInAnyOrder("io.zklock.lock", "io.zklock.lock.inspection", "io.zklock.lock.internal");
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
	void shouldHaveNoSpringImportInMainOrTestCode() {
		JavaClasses all = new ClassFileImporter().importPackages("io.zklock");
		LayerRules.noDependencyOn("org.springframework..").check(all);
	}

}
