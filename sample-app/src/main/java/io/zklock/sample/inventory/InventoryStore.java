package io.zklock.sample.inventory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Stock levels in a directory that several processes share: one small text file per SKU
 * holding the stock and the largest fencing token that wrote it.
 *
 * <p>
 * Each single read and each single write is atomic (a write replaces the file by a rename,
 * under an OS file lock on the directory), but a read followed by a write is not: two processes that both read
 * 10 and both write 9 lose an update. That read–modify–write is what the distributed lock
 * guards.
 *
 * <p>
 * The store is also the fencing check: {@link #write} refuses a token that is not greater
 * than the stored one, counts it as a fencing violation and throws
 * {@link StaleFencingTokenException}. Writes without a token (locking off) are not checked.
 *
 * <p>
 * Thread-safe; several instances, in one process or many, may share a directory.
 */
public class InventoryStore {

	private static final Pattern SKU_PATTERN = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");

	private static final String STOCK_PREFIX = "stock=";

	private static final String TOKEN_PREFIX = "fencing-token=";

	private final Path directory;

	private final ReentrantLock localWriteLock = new ReentrantLock();

	private final AtomicLong writeCount = new AtomicLong();

	private final AtomicLong fencingViolationCount = new AtomicLong();

	/**
	 * Creates a store over a directory, creating the directory if needed.
	 * @param directory the directory of the stock files
	 * @throws UncheckedIOException if the directory cannot be created
	 */
	public InventoryStore(Path directory) {
		this.directory = directory.toAbsolutePath();
		try {
			Files.createDirectories(this.directory);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot create inventory directory " + this.directory
					+ "; set sample.inventory.dir to a writable directory", ex);
		}
	}

	/**
	 * Reads the stock of a SKU.
	 * @param sku the SKU: letters, digits, {@code _} and {@code -}, at most 64 characters
	 * @return the record, or empty if the SKU has never been written
	 * @throws IllegalArgumentException if the SKU is invalid
	 * @throws UncheckedIOException if the file cannot be read
	 */
	public Optional<StockRecord> read(String sku) {
		Path file = stockFile(sku);
		try {
			return Optional.of(parse(file, Files.readAllLines(file, StandardCharsets.UTF_8)));
		}
		catch (NoSuchFileException ex) {
			return Optional.empty();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read " + file, ex);
		}
	}

	/**
	 * Writes the stock of a SKU if the fencing token is newer than the stored one.
	 * @param sku the SKU
	 * @param stock the new stock, not negative
	 * @param fencingToken the writer's fencing token, or {@code null} when writing without a
	 * lock (no fencing check; the stored token is kept)
	 * @return the record written
	 * @throws StaleFencingTokenException if the token is not greater than the stored token
	 * (the write is refused and counted as a fencing violation)
	 * @throws IllegalArgumentException if the SKU is invalid or the stock negative
	 * @throws UncheckedIOException if the file cannot be written
	 */
	public StockRecord write(String sku, int stock, Long fencingToken) {
		return update(sku, (current) -> {
			long storedToken = current.map(StockRecord::fencingToken).orElse(0L);
			if (fencingToken != null && fencingToken <= storedToken) {
				this.fencingViolationCount.incrementAndGet();
				throw new StaleFencingTokenException(sku, fencingToken, storedToken);
			}
			return new StockRecord(stock, (fencingToken != null) ? fencingToken : storedToken);
		});
	}

	/**
	 * Replaces the stock of a SKU, fencing token included, whatever the store held: starts a
	 * new count, for example when the ZooKeeper ensemble was replaced and its tokens started
	 * over.
	 * @param sku the SKU
	 * @param stock the new stock, not negative
	 * @param fencingToken the writer's fencing token, or {@code null} for none
	 * @return the record written
	 * @throws IllegalArgumentException if the SKU is invalid or the stock negative
	 * @throws UncheckedIOException if the file cannot be written
	 */
	public StockRecord reset(String sku, int stock, Long fencingToken) {
		return update(sku, (current) -> new StockRecord(stock, (fencingToken != null) ? fencingToken : 0L));
	}

	/**
	 * The stock of every SKU, added up, as the files hold it now (each read alone, not one snapshot).
	 * @return the total stock
	 * @throws UncheckedIOException if the directory or a file cannot be read
	 */
	public long totalStock() {
		try (Stream<Path> files = Files.list(this.directory)) {
			return files.map((file) -> file.getFileName().toString())
				.filter((name) -> name.endsWith(".stock") && !name.startsWith("."))
				.map((name) -> name.substring(0, name.length() - ".stock".length()))
				.filter((sku) -> SKU_PATTERN.matcher(sku).matches())
				.mapToLong((sku) -> read(sku).map(StockRecord::stock).orElse(0))
				.sum();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot list " + this.directory, ex);
		}
	}

	/**
	 * The directory of the stock files.
	 * @return the absolute directory
	 */
	public Path getDirectory() {
		return this.directory;
	}

	/**
	 * How many writes and resets this store instance has made.
	 * @return the number of successful writes
	 */
	public long getWriteCount() {
		return this.writeCount.get();
	}

	/**
	 * How many writes this store instance has refused for a stale fencing token.
	 * @return the number of fencing violations
	 */
	public long getFencingViolationCount() {
		return this.fencingViolationCount.get();
	}

	/**
	 * Runs one conditional write atomically: in this process under a lock, across processes
	 * under an OS lock on the directory's lock file. One lock for all SKUs, because the OS
	 * locks belong to the process: per-SKU locks held by threads of several processes would
	 * make the kernel report false deadlocks. A write takes well under a millisecond.
	 */
	private StockRecord update(String sku, Function<Optional<StockRecord>, StockRecord> change) {
		Path file = stockFile(sku);
		this.localWriteLock.lock();
		try (FileChannel channel = FileChannel.open(this.directory.resolve(".store.lock"), StandardOpenOption.CREATE,
				StandardOpenOption.WRITE); FileLock fileLock = channel.lock()) {
			StockRecord next = change.apply(read(sku));
			replace(file, next);
			this.writeCount.incrementAndGet();
			return next;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot write " + file, ex);
		}
		finally {
			this.localWriteLock.unlock();
		}
	}

	private void replace(Path file, StockRecord record) throws IOException {
		Path temporary = Files.createTempFile(this.directory, "." + file.getFileName(), ".tmp");
		try {
			Files.writeString(temporary,
					STOCK_PREFIX + record.stock() + "\n" + TOKEN_PREFIX + record.fencingToken() + "\n",
					StandardCharsets.UTF_8);
			Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
		}
		finally {
			Files.deleteIfExists(temporary);
		}
	}

	private Path stockFile(String sku) {
		if (sku == null || !SKU_PATTERN.matcher(sku).matches()) {
			throw new IllegalArgumentException("SKU '" + sku
					+ "' is invalid: use 1 to 64 letters, digits, '_' or '-', starting with a letter or digit");
		}
		return this.directory.resolve(sku + ".stock");
	}

	private static StockRecord parse(Path file, List<String> lines) {
		Integer stock = null;
		Long token = null;
		for (String line : lines) {
			if (line.startsWith(STOCK_PREFIX)) {
				stock = Integer.valueOf(line.substring(STOCK_PREFIX.length()).trim());
			}
			else if (line.startsWith(TOKEN_PREFIX)) {
				token = Long.valueOf(line.substring(TOKEN_PREFIX.length()).trim());
			}
		}
		if (stock == null || token == null) {
			throw new IllegalStateException("Stock file " + file + " is corrupt: expected lines '" + STOCK_PREFIX
					+ "<n>' and '" + TOKEN_PREFIX + "<n>', found " + lines);
		}
		return new StockRecord(stock, token);
	}

}
