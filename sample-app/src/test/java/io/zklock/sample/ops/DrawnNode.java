package io.zklock.sample.ops;

/**
 * One lock node card of the live page.
 *
 * @param fencingToken the fencing token the card is drawn for
 * @param text the card's visible text
 */
record DrawnNode(long fencingToken, String text) {

}
