package io.zklock.fault.contender;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import io.zklock.lock.HoldOwner;
import io.zklock.lock.LockHandle;

/**
 * The commands a contender process understands, one per line on its standard input. Replies
 * start with {@code R}; see {@link ContenderMain} for the list. The commands that take a guarded
 * section ({@code run}, {@code hold}, {@code round}) accept a last word {@code shape=<shape>}
 * choosing its {@link CallShape} ({@code thread} if absent); {@code round} also
 * {@code name=<worker>}, {@code run} also {@code give-up-every=<n>}.
 */
final class Contender implements CommandLoop.Program {

	private static final String SHAPE_OPTION = "shape=";

	private static final String NAME_OPTION = "name=";

	private static final String GIVE_UP_OPTION = "give-up-every=";

	private final EventSink events;

	private final int registerPort;

	private LockClient client;

	private Workload workload;

	private HeldSection held;

	private SectionPools pools;

	Contender(EventSink events, int registerPort) {
		this.events = events;
		this.registerPort = registerPort;
	}

	/**
	 * Runs one command.
	 * @return {@code false} once the process should exit
	 */
	@Override
	public boolean handle(String line) throws Exception {
		String[] all = line.trim().split("\\s+");
		CallShape shape = shapeOf(all);
		String name = option(all, NAME_OPTION);
		String giveUpEvery = option(all, GIVE_UP_OPTION);
		String[] words = Arrays.stream(all)
			.filter((word) -> !word.startsWith(SHAPE_OPTION) && !word.startsWith(NAME_OPTION)
					&& !word.startsWith(GIVE_UP_OPTION))
			.toArray(String[]::new);
		switch (words[0]) {
			case "connect" -> connect(words[1], Duration.ofMillis(Long.parseLong(words[2])));
			case "run" -> run(new Workload.Spec(List.of(words[1].split(",")), Integer.parseInt(words[2]), Integer.parseInt(words[3]),
					Integer.parseInt(words[4]), Integer.parseInt(words[5]), Integer.parseInt(words[6]),
					Duration.ofMillis(Long.parseLong(words[7])), shape,
					(giveUpEvery != null) ? Integer.parseInt(giveUpEvery) : 0));
			case "stop" -> stop();
			case "hold" -> hold(words[1], Duration.ofMillis(Long.parseLong(words[2])), shape);
			case "write", "state", "release" -> step(words[0]);
			case "round" -> round(words[1], Duration.ofMillis(Long.parseLong(words[2])), shape,
					(name != null) ? name : "round");
			case "status" -> this.events.reply("status", (this.client != null)
					? this.client.sessionId() + " " + this.client.serverPort() + " " + this.client.isConnected()
					: "none 0 false");
			case "close" -> {
				close();
				this.events.reply("closed", "");
			}
			case "exit" -> {
				close();
				return false;
			}
			default -> this.events.reply("error", "unknown command '" + line + "'");
		}
		return true;
	}

	private void connect(String connectString, Duration sessionTimeout) throws InterruptedException {
		close();
		this.client = new LockClient(connectString, sessionTimeout, this.events);
		this.events.reply("connected", this.client.sessionId());
	}

	private void run(Workload.Spec spec) {
		requireClient();
		if (this.workload != null && this.workload.isRunning()) {
			throw new IllegalStateException("rounds are running already: send 'stop' first");
		}
		Workload workload = new Workload(spec, this.client.lock(), this.registerPort, this.events, pools());
		this.workload = workload;
		workload.start(() -> this.events.reply("run-done", Integer.toString(workload.completed())));
		this.events.reply("running", "");
	}

	private void stop() throws InterruptedException {
		int rounds = (this.workload != null) ? this.workload.stop(Duration.ofSeconds(20)) : 0;
		this.workload = null;
		this.events.reply("stopped", Integer.toString(rounds));
	}

	private void hold(String lockPath, Duration wait, CallShape shape) {
		requireClient();
		this.held = new HeldSection(lockPath, wait, this.client.lock(), this.registerPort, this.events, shape, pools());
		this.held.start();
	}

	private void step(String step) {
		if (this.held == null || this.held.isDone()) {
			this.events.reply("error", "no held section for '" + step + "'");
			return;
		}
		this.held.step(step);
	}

	/**
	 * One guarded round on a thread of its own, named {@code name} (the worker's name in the
	 * history; {@code round} unless the command names it): in the {@code thread} shape that thread
	 * runs it all; in the asynchronous shapes it acquires call-owned and the section runs and
	 * releases on the pools. The reply's word is {@code round}, or {@code round-<name>} for a named
	 * round, so that several rounds can run at once and be told apart.
	 */
	private void round(String lockPath, Duration wait, CallShape shape, String name) {
		requireClient();
		SectionPools pools = pools();
		String reply = name.equals("round") ? "round" : "round-" + name;
		Thread thread = new Thread(() -> {
			try (RegisterClient register = new RegisterClient(this.registerPort)) {
				GuardedRound round = new GuardedRound(this.client.lock(), register, this.events, name,
						shape.isThreadOwned() ? HoldOwner.THREAD : HoldOwner.CALL);
				Optional<LockHandle> acquired = round.acquirePersistently(lockPath, wait);
				if (acquired.isEmpty()) {
					this.events.reply(reply, "0 none");
					return;
				}
				LockHandle handle = acquired.get();
				if (!shape.isThreadOwned()) {
					pools.runSection(shape, round, handle, (here) -> readAndWrite(here, handle))
						.whenComplete((accepted, error) -> this.events.reply(reply,
								handle.fencingToken() + " " + (Boolean.TRUE.equals(accepted) ? "accepted" : "rejected")));
					return;
				}
				boolean accepted = false;
				try {
					accepted = readAndWrite(round, handle);
				}
				finally {
					round.release(handle);
				}
				this.events.reply(reply, handle.fencingToken() + " " + (accepted ? "accepted" : "rejected"));
			}
		}, name);
		thread.setDaemon(true);
		thread.start();
	}

	private static boolean readAndWrite(GuardedRound round, LockHandle handle) {
		long value = round.read(handle);
		return value >= 0 && round.write(handle, value + 1);
	}

	/** The pools of the asynchronous shapes, started on first use. */
	private SectionPools pools() {
		if (this.pools == null) {
			this.pools = new SectionPools(this.registerPort);
		}
		return this.pools;
	}

	private static CallShape shapeOf(String[] words) {
		String shape = option(words, SHAPE_OPTION);
		return (shape != null) ? CallShape.of(shape) : CallShape.THREAD;
	}

	/** The value of the last word starting with {@code prefix}, or {@code null}. */
	private static String option(String[] words, String prefix) {
		return Arrays.stream(words)
			.filter((word) -> word.startsWith(prefix))
			.map((word) -> word.substring(prefix.length()))
			.reduce((first, second) -> second)
			.orElse(null);
	}

	private void requireClient() {
		if (this.client == null) {
			throw new IllegalStateException("not connected: send 'connect' first");
		}
	}

	@Override
	public void close() throws InterruptedException {
		if (this.workload != null) {
			this.workload.stop(Duration.ofSeconds(10));
			this.workload = null;
		}
		if (this.held != null) {
			this.held.interrupt();
			this.held = null;
		}
		if (this.pools != null) {
			this.pools.close();
			this.pools = null;
		}
		if (this.client != null) {
			this.client.close();
			this.client = null;
		}
	}

}
