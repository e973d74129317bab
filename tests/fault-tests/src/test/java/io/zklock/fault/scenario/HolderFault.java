package io.zklock.fault.scenario;

import io.zklock.fault.harness.ContenderProcess;
import io.zklock.fault.harness.FaultLab;

/**
 * A fault that cuts a lock holder off without killing it, and its end: the holder comes back
 * still believing, for a moment, that it holds the lock.
 */
public interface HolderFault {

	/** The fault's name in the figures, such as {@code SIGSTOP holder}. */
	String kind();

	/** Whether the holder is frozen (a paused process cannot notice anything). */
	boolean freezesHolder();

	void inject(FaultLab lab, ContenderProcess holder);

	void heal(FaultLab lab, ContenderProcess holder);

	/** {@code SIGSTOP} the holder's JVM; {@code SIGCONT} heals. */
	static HolderFault pause() {
		return new HolderFault() {

			@Override
			public String kind() {
				return "SIGSTOP holder";
			}

			@Override
			public boolean freezesHolder() {
				return true;
			}

			@Override
			public void inject(FaultLab lab, ContenderProcess holder) {
				holder.pause();
			}

			@Override
			public void heal(FaultLab lab, ContenderProcess holder) {
				holder.resume();
			}

		};
	}

	/** Black-hole the holder's proxy (the holder runs on, cut off from every member). */
	static HolderFault partition() {
		return new HolderFault() {

			@Override
			public String kind() {
				return "partition holder";
			}

			@Override
			public boolean freezesHolder() {
				return false;
			}

			@Override
			public void inject(FaultLab lab, ContenderProcess holder) {
				lab.proxyOf(holder).blackHole();
			}

			@Override
			public void heal(FaultLab lab, ContenderProcess holder) {
				lab.proxyOf(holder).heal();
			}

		};
	}

}
