package io.zklock.fault.contender;

import java.time.Duration;
import java.util.Optional;

import io.zklock.lock.LockHandle;

/**
 * The commands a contender process understands, one per line on its standard input. Replies
 * start with {@code R}; see {@link ContenderMain} for the list.
 */
final class Contender {

	private final EventSink events;

	private final int registerPort;

	private LockClient client;

	private Workload workload;

	private HeldSection held;

	Contender(EventSink events, int registerPort) {
		this.events = events;
		this.registerPort = registerPort;
	}

	/**
	 * Runs one command.
	 * @return {@code false} once the process should exit
	 */
	boolean handle(String line) throws Exception {
		String[] words = line.trim().split("\\s+");
		switch (words[0]) {
			case "connect" -> connect(words[1], Duration.ofMillis(Long.parseLong(words[2])));
			case "run" -> run(new Workload.Spec(words[1], Integer.parseInt(words[2]), Integer.parseInt(words[3]),
					Integer.parseInt(words[4]), Integer.parseInt(words[5]), Integer.parseInt(words[6]),
					Duration.ofMillis(Long.parseLong(words[7]))));
			case "stop" -> stop();
			case "hold" -> hold(words[1], Duration.ofMillis(Long.parseLong(words[2])));
			case "write", "state", "release" -> step(words[0]);
			case "round" -> round(words[1], Duration.ofMillis(Long.parseLong(words[2])));
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
		Workload workload = new Workload(spec, this.client.lock(), this.registerPort, this.events);
		this.workload = workload;
		workload.start(() -> this.events.reply("run-done", Integer.toString(workload.completed())));
		this.events.reply("running", "");
	}

	private void stop() throws InterruptedException {
		int rounds = (this.workload != null) ? this.workload.stop(Duration.ofSeconds(20)) : 0;
		this.workload = null;
		this.events.reply("stopped", Integer.toString(rounds));
	}

	private void hold(String lockPath, Duration wait) {
		requireClient();
		this.held = new HeldSection(lockPath, wait, this.client.lock(), this.registerPort, this.events);
		this.held.start();
	}

	private void step(String step) {
		if (this.held == null || this.held.isDone()) {
			this.events.reply("error", "no held section for '" + step + "'");
			return;
		}
		this.held.step(step);
	}

	private void round(String lockPath, Duration wait) {
		requireClient();
		Thread thread = new Thread(() -> {
			try (RegisterClient register = new RegisterClient(this.registerPort)) {
				GuardedRound round = new GuardedRound(this.client.lock(), register, this.events, "round");
				Optional<LockHandle> acquired = round.acquirePersistently(lockPath, wait);
				if (acquired.isEmpty()) {
					this.events.reply("round", "0 none");
					return;
				}
				LockHandle handle = acquired.get();
				boolean accepted = false;
				try {
					long value = round.read(handle);
					accepted = value >= 0 && round.write(handle, value + 1);
				}
				finally {
					round.release(handle);
				}
				this.events.reply("round", handle.fencingToken() + " " + (accepted ? "accepted" : "rejected"));
			}
		}, "round");
		thread.setDaemon(true);
		thread.start();
	}

	private void requireClient() {
		if (this.client == null) {
			throw new IllegalStateException("not connected: send 'connect' first");
		}
	}

	void close() throws InterruptedException {
		if (this.workload != null) {
			this.workload.stop(Duration.ofSeconds(10));
			this.workload = null;
		}
		if (this.held != null) {
			this.held.interrupt();
			this.held = null;
		}
		if (this.client != null) {
			this.client.close();
			this.client = null;
		}
	}

}
