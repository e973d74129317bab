package io.zklock.packageengine.internal;

/** The machinery of an engine below the fixture, as {@code io.zklock.lock.internal} is below lock-autoconfigure. */
public class Machine {

}
