package io.zklock.sample.audit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The inventory audit's ledger: a text file in the shared inventory directory, one line per audit
 * run, {@code <epoch millis> <instance> <fencing token> <total stock>}. A fenced store: an entry
 * whose fencing token is smaller than the last entry's is refused (counted, not written), so a
 * leader that lost its term while it was stalled cannot write behind its successor; entries of one
 * term share its token. An entry without a token (zklock disabled) is not checked.
 *
 * <p>
 * Thread-safe; several instances, in one process or many, may share the file.
 */
public class AuditLedger {

	/** The ledger's file name in the inventory directory. */
	public static final String FILE_NAME = "audit.log";

	private final Path file;

	private final Path lockFile;

	private final ReentrantLock localLock = new ReentrantLock();

	private final AtomicLong refused = new AtomicLong();

	/**
	 * Creates the ledger of an inventory directory.
	 * @param directory the shared inventory directory
	 */
	public AuditLedger(Path directory) {
		this.file = directory.toAbsolutePath().resolve(FILE_NAME);
		this.lockFile = directory.toAbsolutePath().resolve(".audit.lock");
	}

	/**
	 * Appends an entry, unless its token is older than the last entry's.
	 * @param instance who writes it
	 * @param fencingToken the writer's term's fencing token, or {@code null} without one
	 * @param totalStock what the audit counted
	 * @return whether it was written; {@code false} if refused for a stale token
	 * @throws UncheckedIOException if the file cannot be read or written
	 */
	public boolean append(String instance, Long fencingToken, long totalStock) {
		this.localLock.lock();
		try (FileChannel channel = FileChannel.open(this.lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
				FileLock fileLock = channel.lock()) {
			long last = lastToken();
			if (fencingToken != null && fencingToken < last) {
				this.refused.incrementAndGet();
				return false;
			}
			String line = System.currentTimeMillis() + " " + instance + " " + ((fencingToken != null) ? fencingToken : 0)
					+ " " + totalStock + "\n";
			Files.writeString(this.file, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
					StandardOpenOption.APPEND);
			return true;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot append to " + this.file, ex);
		}
		finally {
			this.localLock.unlock();
		}
	}

	/**
	 * How many entries this process's writers had refused.
	 * @return the refused entries
	 */
	public long getRefusedCount() {
		return this.refused.get();
	}

	/**
	 * The ledger file.
	 * @return its path
	 */
	public Path getFile() {
		return this.file;
	}

	private long lastToken() throws IOException {
		List<String> lines;
		try {
			lines = Files.readAllLines(this.file, StandardCharsets.UTF_8);
		}
		catch (NoSuchFileException ex) {
			return 0;
		}
		for (int i = lines.size() - 1; i >= 0; i--) {
			String[] fields = lines.get(i).split(" ");
			if (fields.length == 4) {
				return Long.parseLong(fields[2]);
			}
		}
		return 0;
	}

}
