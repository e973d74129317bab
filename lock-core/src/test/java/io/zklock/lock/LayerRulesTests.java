package io.zklock.lock;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each rule of {@link LayerRules} fails on a fixture that breaks it (package
 * {@code io.zklock.layerfixture}, an API with events, inspection and machinery like lock-core's;
 * {@code io.zklock.layerabove}, an API built on it as leadership is on the lock engine; and
 * {@code io.zklock.layershared}, helpers shared by both as {@code io.zklock.internal} is): a rule
 * that cannot fail would prove nothing in {@link LayerTests}.
 */
class LayerRulesTests {

	private static final JavaClasses FIXTURE = new ClassFileImporter().importPackages("io.zklock.layerfixture");

	private static final LayerRules RULES = new LayerRules("io.zklock.layerfixture");

	/** An API built on the fixture, as leadership is built on the lock engine. */
	private static final JavaClasses TWO_APIS = new ClassFileImporter().importPackages("io.zklock.layerfixture",
			"io.zklock.layerabove");

	private static final LayerRules ABOVE = new LayerRules("io.zklock.layerabove");

	@Test
	void shouldFailWhenAPublicSignatureNamesAnInternalType() {
		assertThat(report(RULES.publicSignaturesNameNoInternalType()))
			.contains("io.zklock.layerfixture.Api.machine names io.zklock.layerfixture.internal.Machine")
			.contains("io.zklock.layerfixture.inspection.Door.machine names io.zklock.layerfixture.internal.Machine")
			.contains("io.zklock.layerfixture.event.Signal.machine names io.zklock.layerfixture.internal.Machine")
			// the inspection is API, and the machinery used privately is allowed
			.doesNotContain("doors()")
			.doesNotContain("quietly");
	}

	@Test
	void shouldFailWhenTheEventsImportTheMachinery() {
		assertThat(report(RULES.eventImportsTheApiOnly())).contains("io.zklock.layerfixture.event.Signal")
			.contains("io.zklock.layerfixture.internal.Machine");
	}

	@Test
	void shouldFailWhenTheSharedHelpersImportAPackageAboveThem() {
		JavaClasses shared = new ClassFileImporter().importPackages("io.zklock.layershared", "io.zklock.layerfixture");
		assertThat(report(LayerRules.helpersImportNothingAbove("io.zklock.layershared", "io.zklock"), shared))
			.contains("io.zklock.layershared.Helper")
			.contains("io.zklock.layerfixture.Api");
	}

	@Test
	void shouldFailWhenTheMachineryImportsTheInspection() {
		assertThat(report(RULES.internalImportsNoInspection())).contains("io.zklock.layerfixture.internal.Machine")
			.contains("io.zklock.layerfixture.inspection.Door");
	}

	@Test
	void shouldFailOnAPackageCycle() {
		assertThat(report(RULES.noPackageCycles())).contains("io.zklock.layerfixture.internal")
			.contains("io.zklock.layerfixture.inspection");
	}

	@Test
	void shouldFailOnEngineClassesThatDependOnEachOtherBothWaysCountingNestedClasses() {
		assertThat(report(RULES.noMutualEngineClasses()))
			.contains("io.zklock.layerfixture.internal.Attempt and io.zklock.layerfixture.internal.Round depend on "
					+ "each other both ways")
			.contains("io.zklock.layerfixture.inspection.Door and io.zklock.layerfixture.internal.Machine depend on each "
					+ "other both ways");
	}

	@Test
	void shouldFailWhenAForbiddenPackageIsUsed() {
		// the Spring rule of LayerTests, with a package the fixture does use
		assertThat(report(LayerRules.noDependencyOn("org.apache.curator..")))
			.contains("io.zklock.layerfixture.Api").contains("org.apache.curator.framework.CuratorFramework");
	}

	@Test
	void shouldFailWhenAPublicSignatureOfTheApiAboveNamesTheEngineBelow() {
		assertThat(report(ABOVE.publicSignaturesNameNoInternalType(), TWO_APIS))
			.contains("io.zklock.layerabove.Above.machine() names io.zklock.layerfixture.internal.Machine")
			.doesNotContain("Above.api");
	}

	@Test
	void shouldFailWhenTheApiAboveUsesTheMachineryBelow() {
		assertThat(report(ABOVE.usesNoMachineryOf("io.zklock.layerfixture"), TWO_APIS))
			.contains("io.zklock.layerabove.Above")
			.contains("io.zklock.layerfixture.internal.Machine");
	}

	@Test
	void shouldFailWhenTheApiBelowKnowsTheApiAbove() {
		assertThat(report(ABOVE.isUnknownTo("io.zklock.layerfixture"), TWO_APIS))
			.contains("io.zklock.layerfixture.Below")
			.contains("io.zklock.layerabove.Above");
	}

	private static String report(ArchRule rule) {
		return report(rule, FIXTURE);
	}

	private static String report(ArchRule rule, JavaClasses classes) {
		EvaluationResult result = rule.evaluate(classes);
		assertThat(result.hasViolation()).as("%s fails on the fixture", rule.getDescription()).isTrue();
		return result.getFailureReport().toString();
	}

}
