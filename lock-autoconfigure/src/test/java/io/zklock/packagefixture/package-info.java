/**
 * A fixture laid out like lock-autoconfigure that breaks every rule of {@code PackageRules}:
 * the contract imports the machinery, the machinery the auto-configuration, an optional part
 * the machinery and another part, and an optional part uses an engine's machinery and names
 * machinery in public signatures. Only {@code PackageRulesTests} reads it.
 */
package io.zklock.packagefixture;
