/**
 * A fixture for {@code io.zklock.lock.LayerRulesTests}: an API with its events, its inspection and
 * its machinery, as lock-core has, that breaks each layer rule once, so that the rules are shown to
 * fail. Not used by any other code.
 */
package io.zklock.layerfixture;
