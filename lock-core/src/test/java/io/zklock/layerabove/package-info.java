/**
 * A fixture for {@code LayerRulesTests}: an API built on {@code io.zklock.layerfixture} that breaks
 * the rules between an API and the one below it.
 */
package io.zklock.layerabove;
