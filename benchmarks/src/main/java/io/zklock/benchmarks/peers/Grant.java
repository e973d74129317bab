package io.zklock.benchmarks.peers;

import java.util.OptionalLong;

/**
 * One held lock of any library, with what the pause test needs: the fencing token the library
 * gives the holder (if any), and whether the library still lets the holder believe it holds.
 */
interface Grant {

	/**
	 * The fencing token of this grant.
	 * @return the token, or empty if the library gives none
	 */
	OptionalLong token();

	/**
	 * Whether the holder may believe it still holds the lock, asked the way the library's
	 * documentation says to ask (a local state, a callback seen, or a call to the server).
	 * @return {@code false} once the library says the lock is gone
	 * @throws Exception if asking fails
	 */
	boolean believesHeld() throws Exception;

	/**
	 * Releases the lock.
	 * @throws Exception if the library fails
	 */
	void release() throws Exception;

}
