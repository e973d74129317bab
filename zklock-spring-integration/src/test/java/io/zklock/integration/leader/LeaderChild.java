package io.zklock.integration.leader;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.zklock.fixtures.Signals;

/**
 * The test JVM's side of a {@link LeaderChildMain} process: starts it on this JVM's class path,
 * turns its report lines into the {@link LeadershipLog} and the {@link FencedResource}
 * (stamped on receipt), and freezes, resumes or ends it with signals.
 */
final class LeaderChild implements AutoCloseable {

	private final String name;

	private final Process process;

	private final CountDownLatch started = new CountDownLatch(1);

	LeaderChild(String name, String connectString, Duration sessionTimeout, RegistryKind kind, LeadershipLog log,
			FencedResource resource, Path logDir) throws IOException {
		this.name = name;
		String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.net.preferIPv4Stack=true", "-cp",
				classpath, LeaderChildMain.class.getName(), name, connectString, Long.toString(sessionTimeout.toMillis()),
				kind.name()));
		Files.createDirectories(logDir);
		this.process = new ProcessBuilder(command)
			.redirectError(ProcessBuilder.Redirect.appendTo(logDir.resolve(name + ".log").toFile()))
			.start();
		Thread reader = new Thread(() -> read(log, resource), "child-" + name);
		reader.setDaemon(true);
		reader.start();
	}

	private void read(LeadershipLog log, FencedResource resource) {
		try (BufferedReader lines = new BufferedReader(
				new InputStreamReader(this.process.getInputStream(), StandardCharsets.UTF_8))) {
			String line;
			while ((line = lines.readLine()) != null) {
				if (line.equals("STARTED")) {
					this.started.countDown();
				}
				else if (line.startsWith("GRANTED ")) {
					log.granted(this.name, Long.parseLong(line.substring(8)));
				}
				else if (line.equals("REVOKED")) {
					log.revoked(this.name);
				}
				else if (line.startsWith("WRITE ")) {
					resource.write(this.name, Long.parseLong(line.substring(6)));
				}
			}
		}
		catch (IOException ex) {
			// the process ended
		}
	}

	void awaitStarted(Duration timeout) throws InterruptedException {
		if (!this.started.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
			throw new IllegalStateException("Child " + this.name + " did not start within " + timeout);
		}
	}

	void pause() {
		Signals.stop(this.process.pid());
	}

	void resume() {
		Signals.resume(this.process.pid());
	}

	@Override
	public void close() throws Exception {
		if (this.process.isAlive()) {
			Signals.resume(this.process.pid());
		}
		this.process.getOutputStream().close();
		if (!this.process.waitFor(20, TimeUnit.SECONDS)) {
			this.process.destroyForcibly();
		}
	}

}
