/**
 * An engine below {@code io.zklock.packagefixture}, as zklock-core is below lock-autoconfigure: its
 * {@code internal} package is the machinery the fixture must not use. Only {@code PackageRulesTests}
 * reads it.
 */
package io.zklock.packageengine;
