package io.zklock.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.zklock.lock.LockMode;
import io.zklock.lock.ReleaseResult;
import io.zklock.lock.event.LockListener;
import io.zklock.lock.event.LockTarget;
import io.zklock.test.history.CheckResult;
import io.zklock.test.history.LockHistory;

/**
 * A {@link LockListener} that records the locks an application takes, in the order they were
 * granted, with their fencing tokens; and the acquires that timed out. In a Spring test with
 * {@link EmbeddedZooKeeper} it is a bean; elsewhere declare one as a bean, or add it to a
 * {@code LockEngine}.
 *
 * <pre class="code">
 * List&lt;LockRecorder.Acquisition&gt; taken = recorder.record(() -&gt; orders.merge(7, 3));
 * assertThat(taken).extracting(LockRecorder.Acquisition::lockPath).containsExactly("orders/3", "orders/7");
 * </pre>
 *
 * It also keeps the application's lock history ({@link #history()}: every acquire start,
 * grant, timeout, release and loss with its fencing token, thread and monotonic time) for
 * zklock's history checker:
 *
 * <pre class="code">
 * recorder.check().assertSafe();   // no two holds at once, unique tokens in real-time order
 * </pre>
 *
 * Reentrant acquires of a lock a thread already holds are not recorded (no lock node is
 * granted). Thread-safe.
 */
public class LockRecorder implements LockListener {

	/** The holder name of the application's events in {@link #history()}. */
	public static final String DEFAULT_HOLDER = "application";

	private final LockHistory history = new LockHistory();

	private final LockListener historyListener;

	private final List<Acquisition> acquisitions = new ArrayList<>();

	private final List<LockTarget> timeouts = new ArrayList<>();

	private final List<Acquisition> releases = new ArrayList<>();

	/**
	 * Creates a recorder whose history names the application {@value #DEFAULT_HOLDER}.
	 */
	public LockRecorder() {
		this(DEFAULT_HOLDER);
	}

	/**
	 * Creates a recorder whose history names the application as given: give each application
	 * instance of a test its own name when their events go to one history.
	 * @param holder the application's name in the history, such as {@code "app-1"}
	 * @throws IllegalArgumentException if {@code holder} is {@code null} or blank
	 */
	public LockRecorder(String holder) {
		this.historyListener = this.history.listener(holder);
	}

	@Override
	public void onAcquiring(LockTarget lock) {
		this.historyListener.onAcquiring(lock);
	}

	@Override
	public void onAcquired(LockTarget lock, long fencingToken, Duration waited) {
		this.historyListener.onAcquired(lock, fencingToken, waited);
		synchronized (this) {
			this.acquisitions.add(new Acquisition(lock.lockPath(), lock.lockName(), lock.mode(), fencingToken,
					Thread.currentThread().getName()));
		}
	}

	@Override
	public void onTimeout(LockTarget lock, Duration waited) {
		this.historyListener.onTimeout(lock, waited);
		synchronized (this) {
			this.timeouts.add(lock);
		}
	}

	@Override
	public void onFailed(LockTarget lock, Duration waited, Throwable error) {
		this.historyListener.onFailed(lock, waited, error);
	}

	@Override
	public void onReleasing(LockTarget lock, long fencingToken) {
		this.historyListener.onReleasing(lock, fencingToken);
	}

	@Override
	public void onReleased(LockTarget lock, long fencingToken, Duration heldFor, ReleaseResult result) {
		this.historyListener.onReleased(lock, fencingToken, heldFor, result);
		synchronized (this) {
			this.releases.add(new Acquisition(lock.lockPath(), lock.lockName(), lock.mode(), fencingToken,
					Thread.currentThread().getName()));
		}
	}

	@Override
	public void onLost(LockTarget lock, long fencingToken, Duration heldFor) {
		this.historyListener.onLost(lock, fencingToken, heldFor);
	}

	/**
	 * The application's lock history since this recorder was made or cleared: every acquire
	 * start, grant, timeout or failure, release and loss, with fencing token, thread and
	 * monotonic time. Check it with {@link LockHistory#check()}; record the guarded work too
	 * with {@link LockHistory#enter}.
	 * @return the live history (not a copy)
	 */
	public LockHistory history() {
		return this.history;
	}

	/**
	 * Checks {@link #history()}.
	 * @return what zklock's history checker found
	 */
	public CheckResult check() {
		return this.history.check();
	}

	/**
	 * The locks granted since this recorder was made or cleared, in the order they were
	 * granted.
	 * @return a snapshot
	 */
	public synchronized List<Acquisition> acquisitions() {
		return List.copyOf(this.acquisitions);
	}

	/**
	 * The lock paths of {@link #acquisitions()}, in order.
	 * @return a snapshot, such as {@code ["orders/3", "orders/7"]}
	 */
	public synchronized List<String> acquiredPaths() {
		return this.acquisitions.stream().map(Acquisition::lockPath).toList();
	}

	/**
	 * The locks released since this recorder was made or cleared, in the order they were
	 * released (the thread is the releasing thread).
	 * @return a snapshot
	 */
	public synchronized List<Acquisition> releases() {
		return List.copyOf(this.releases);
	}

	/**
	 * The acquires whose wait ran out, in order.
	 * @return a snapshot
	 */
	public synchronized List<LockTarget> timeouts() {
		return List.copyOf(this.timeouts);
	}

	/**
	 * Runs a call and returns the locks granted while it ran, in order (granted to any thread:
	 * locks taken concurrently by other work show too).
	 * @param call the call, such as {@code () -> orders.ship(42)}
	 * @return the locks granted during the call
	 */
	public List<Acquisition> record(Runnable call) {
		int before;
		synchronized (this) {
			before = this.acquisitions.size();
		}
		call.run();
		synchronized (this) {
			return List.copyOf(this.acquisitions.subList(Math.min(before, this.acquisitions.size()),
					this.acquisitions.size()));
		}
	}

	/**
	 * Forgets everything recorded so far, the history too.
	 */
	public synchronized void clear() {
		this.history.clear();
		this.acquisitions.clear();
		this.timeouts.clear();
		this.releases.clear();
	}

	/**
	 * One granted (or released) lock.
	 *
	 * @param lockPath the lock path relative to the lock root, such as {@code "orders/42"}
	 * @param lockName the lock's name for metrics, such as {@code "orders"}
	 * @param mode the mode
	 * @param fencingToken the lock node's fencing token
	 * @param thread the name of the thread it was granted to (or released on)
	 */
	public record Acquisition(String lockPath, String lockName, LockMode mode, long fencingToken, String thread) {

	}

}
