/**
 * A fixture for {@code io.zklock.lock.LayerRulesTests}: a three-layer package that breaks each
 * layer rule once, so that the rules are shown to fail. Not used by any other code.
 */
package io.zklock.layerfixture;
