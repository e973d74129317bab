package io.zklock.benchmarks.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the generated block of a results file between two markers, keeping everything outside
 * them (the hand-written analysis) as it is. A file without the markers gets them, with the
 * block, at its top.
 */
public final class ResultsFile {

	/** The line that opens the generated block. */
	public static final String BEGIN = "<!-- BEGIN GENERATED RESULTS: benchmarks/run.sh rewrites this block; edit outside it -->";

	/** The line that closes the generated block. */
	public static final String END = "<!-- END GENERATED RESULTS -->";

	private ResultsFile() {
	}

	/**
	 * Puts {@code block} between the markers of {@code file}.
	 * @param file the results file; created if missing
	 * @param title the file's first line if it is created
	 * @param block the generated Markdown
	 * @throws IOException if the file cannot be read or written
	 */
	public static void write(Path file, String title, String block) throws IOException {
		String existing = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : null;
		Files.createDirectories(file.toAbsolutePath().getParent());
		Files.writeString(file, merge(existing, title, block), StandardCharsets.UTF_8);
	}

	/**
	 * The new content of a results file.
	 * @param existing the current content, or {@code null} if there is no file
	 * @param title the first line of a new file
	 * @param block the generated Markdown
	 * @return the content with the block between the markers
	 */
	static String merge(String existing, String title, String block) {
		String generated = BEGIN + "\n" + block.strip() + "\n" + END;
		if (existing == null || existing.isBlank()) {
			return title + "\n\n" + generated + "\n";
		}
		int begin = existing.indexOf(BEGIN);
		int end = existing.indexOf(END);
		if (begin < 0 || end < begin) {
			return generated + "\n\n" + existing;
		}
		return existing.substring(0, begin) + generated + existing.substring(end + END.length());
	}

}
