package io.zklock;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packages of lock-autoconfigure, kept true ({@link PackageRules}): contract
 * ({@code io.zklock.annotation}) ← machinery ({@code io.zklock.interceptor}) ←
 * auto-configuration ({@code io.zklock.autoconfigure}), the optional parts beside the machinery,
 * no cycle; the annotation package holds only what a user writes; nothing uses the machinery of
 * zklock-core's engines, and no public signature of a promised package names zklock's machinery.
 * {@link PackageRulesTests} shows each rule failing on a fixture that breaks it.
 */
class PackageTests {

	private static final PackageRules RULES = new PackageRules("io.zklock");

	private static JavaClasses main;

	@BeforeAll
	static void importClasses() {
		main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
			.importPackages("io.zklock.annotation", "io.zklock.interceptor", "io.zklock.autoconfigure",
					"io.zklock.health", "io.zklock.metrics", "io.zklock.endpoint", "io.zklock.observation",
					"io.zklock.fencing", "io.zklock.leadership.event");
		// an empty import would let every rule pass
		assertThat(main.stream().map(JavaClass::getPackageName).distinct()).contains("io.zklock.annotation",
				"io.zklock.interceptor", "io.zklock.autoconfigure", "io.zklock.metrics", "io.zklock.leadership.event");
	}

	@Test
	void shouldDependOneWayFromAutoConfigurationDownToTheContract() {
		RULES.layers().check(main);
	}

	@Test
	void shouldKeepTheOptionalPartsApart() {
		RULES.partsApart().check(main);
	}

	@Test
	void shouldHaveNoPackageCycle() {
		RULES.noCycles().check(main);
	}

	@Test
	void shouldUseNoMachineryOfTheCoresEngines() {
		RULES.usesNoEngineMachinery("io.zklock.lock.internal..", "io.zklock.leadership.internal..").check(main);
	}

	@Test
	void shouldNameNoMachineryInAPublicSignatureOfAPromisedPackage() {
		RULES.publicSignaturesNameNoMachinery().check(main);
	}

	@Test
	void shouldKeepOnlyWhatAUserWritesInTheAnnotationPackage() {
		assertThat(main.stream()
			.filter((javaClass) -> javaClass.getPackageName().equals("io.zklock.annotation"))
			.filter((javaClass) -> javaClass.isTopLevelClass())
			// the package's @NullMarked annotation lives in package-info: not a type a user sees
			.filter((javaClass) -> !javaClass.getSimpleName().equals("package-info"))
			.map(JavaClass::getSimpleName)).containsExactlyInAnyOrder("DistributedLock", "DistributedLocks",
					"DistributedSemaphore", "OnLockFailure", "OnLockLost", "OnHoldExceeded", "HoldExceededException",
					"InvalidLockAnnotationException", "LockContext", "ReactiveLockContext", "SkippedCall",
					"SkippedCallListener", "LeaderOnly", "LeaderScoped", "LeaderContext");
	}

}
