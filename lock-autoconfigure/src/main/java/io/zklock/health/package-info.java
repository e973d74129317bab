/**
 * zklock's health indicator: the state of the ZooKeeper connection its locks depend on.
 */
@NullMarked
package io.zklock.health;

import org.jspecify.annotations.NullMarked;
