package io.zklock;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each rule of {@link PackageRules} fails on a fixture that breaks it (package
 * {@code io.zklock.packagefixture}, laid out like lock-autoconfigure): a rule that cannot fail
 * would prove nothing in {@link PackageTests}.
 */
@Tag("slow")
class PackageRulesTests {

	private static final String FIXTURE_ROOT = "io.zklock.packagefixture";

	private static final JavaClasses FIXTURE = new ClassFileImporter().importPackages(FIXTURE_ROOT,
			"io.zklock.packageengine");

	private static final PackageRules RULES = new PackageRules(FIXTURE_ROOT);

	@Test
	void shouldFailWhenTheContractImportsTheMachinery() {
		assertThat(report(RULES.layers())).contains(FIXTURE_ROOT + ".annotation.Annotated")
			.contains(FIXTURE_ROOT + ".interceptor.Interceptor");
	}

	@Test
	void shouldFailWhenTheMachineryImportsTheAutoConfiguration() {
		assertThat(report(RULES.layers())).contains(FIXTURE_ROOT + ".interceptor.Interceptor")
			.contains(FIXTURE_ROOT + ".autoconfigure.Wiring");
	}

	@Test
	void shouldFailWhenAnOptionalPartImportsTheMachinery() {
		assertThat(report(RULES.layers())).contains(FIXTURE_ROOT + ".metrics.Meters")
			.contains(FIXTURE_ROOT + ".interceptor.Interceptor");
	}

	@Test
	void shouldFailWhenOptionalPartsDependOnEachOther() {
		assertThat(report(RULES.partsApart())).contains(FIXTURE_ROOT + ".health.Health")
			.contains(FIXTURE_ROOT + ".metrics.Meters");
	}

	@Test
	void shouldFailOnAPackageCycle() {
		assertThat(report(RULES.noCycles())).contains(FIXTURE_ROOT + ".annotation")
			.contains(FIXTURE_ROOT + ".interceptor");
	}

	@Test
	void shouldFailWhenAPartUsesAnEnginesMachinery() {
		assertThat(report(RULES.usesNoEngineMachinery("io.zklock.packageengine.internal..")))
			.contains(FIXTURE_ROOT + ".endpoint.Endpoint")
			.contains("io.zklock.packageengine.internal.Machine");
	}

	@Test
	void shouldFailWhenAPublicSignatureNamesTheMachinery() {
		assertThat(report(RULES.publicSignaturesNameNoMachinery()))
			.contains(FIXTURE_ROOT + ".endpoint.Endpoint.machine() names io.zklock.packageengine.internal.Machine")
			.contains(FIXTURE_ROOT + ".endpoint.Endpoint.holder() names " + FIXTURE_ROOT + ".annotation.support.Holder")
			.doesNotContain("quietly");
	}

	private static String report(ArchRule rule) {
		EvaluationResult result = rule.evaluate(FIXTURE);
		assertThat(result.hasViolation()).as("%s fails on the fixture", rule.getDescription()).isTrue();
		return result.getFailureReport().toString();
	}

}
