package io.zklock.sample.ops;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Finds programs the way a shell does: the first executable file of that name in a folder of
 * the {@code PATH}.
 */
final class ExecutableSearch {

	private ExecutableSearch() {
	}

	/**
	 * Finds the first of the names that is on the {@code PATH}.
	 * @param names program names, tried in order
	 * @return the program's path, or empty if none is on the {@code PATH}
	 */
	static Optional<Path> onPath(List<String> names) {
		List<String> folders = List.of(path().split(File.pathSeparator));
		for (String name : names) {
			for (String folder : folders) {
				if (folder.isEmpty()) {
					continue;
				}
				try {
					Path candidate = Path.of(folder, name);
					if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
						return Optional.of(candidate);
					}
				}
				catch (InvalidPathException ex) {
					// a PATH entry that is no path: ignore it, as a shell does
				}
			}
		}
		return Optional.empty();
	}

	/**
	 * The {@code PATH} of this process.
	 * @return the {@code PATH}, empty if unset
	 */
	static String path() {
		String path = System.getenv("PATH");
		return (path != null) ? path : "";
	}

}
