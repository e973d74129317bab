package io.zklock.packagefixture.autoconfigure;

/** The wiring. */
public class Wiring {

}
