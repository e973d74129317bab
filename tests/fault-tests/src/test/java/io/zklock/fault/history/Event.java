package io.zklock.fault.history;

/**
 * One line of the history: something a contender, the register or the nemesis did, stamped
 * with {@link System#nanoTime()} (comparable across the processes of one machine).
 *
 * @param nanos when it happened
 * @param process who: a contender ({@code c1}, {@code c1#2} after a restart), {@code register}
 * or {@code nemesis}
 * @param thread the contender's worker ({@code w0}, {@code hold}, {@code round}), or {@code -}
 * @param type {@code invoke}, {@code ok}, {@code fail}, {@code lost}, {@code write} (a register
 * decision), {@code nemesis} or {@code died}
 * @param f the operation or fault: {@code acquire}, {@code release}, {@code read},
 * {@code write}, {@code lock}, {@code kill}, {@code pause}, …
 * @param lockPath the lock path (the register key), or {@code -}
 * @param token the fencing token, {@code 0} if none
 * @param detail extra information without spaces, or {@code -}
 */
public record Event(long nanos, String process, String thread, String type, String f, String lockPath, long token,
		String detail) {

	/**
	 * Parses the fields a contender sends after its {@code H}.
	 * @param line {@code <nanos> <process> <thread> <type> <f> <lockPath> <token> <detail>}
	 * @return the event
	 * @throws IllegalArgumentException if the line has another shape
	 */
	public static Event parse(String line) {
		String[] w = line.trim().split(" ");
		if (w.length != 8) {
			throw new IllegalArgumentException("History line '" + line + "' has " + w.length + " fields, not 8");
		}
		return new Event(Long.parseLong(w[0]), w[1], w[2], w[3], w[4], w[5], Long.parseLong(w[6]), w[7]);
	}

	/** Whether this is the given type and operation. */
	public boolean is(String type, String f) {
		return this.type.equals(type) && this.f.equals(f);
	}

	/** Whether this is a first (non-reentrant) grant of a lock. */
	public boolean isGrant() {
		return is("ok", "acquire") && !isReentrant();
	}

	public boolean isReentrant() {
		return this.detail.equals("reentrant");
	}

	/** The line as written to the history file. */
	public String format() {
		return this.nanos + " " + this.process + " " + this.thread + " " + this.type + " " + this.f + " "
				+ this.lockPath + " " + this.token + " " + this.detail;
	}

}
