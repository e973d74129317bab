/**
 * A fixture for {@code LayerRulesTests}: helpers shared by every package of the root, as
 * {@code io.zklock.internal} is, that break the rule keeping them below everything.
 */
package io.zklock.layershared;
