package io.zklock.packagefixture.annotation.support;

/** What the machinery writes for the contract to read, as {@code LockContextHolder}. */
public class Holder {

}
