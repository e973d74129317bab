package io.zklock.sample.ops;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A headless Chromium driven through {@code chromedriver}, both found on the {@code PATH}
 * (the browser as {@code chromium}, {@code chromium-browser} or {@code google-chrome}), with a
 * fresh profile that is deleted on {@link #close()}. Fails, never skips, when either is not
 * installed: {@code ./run-tests.sh} installs Debian's {@code chromium} and
 * {@code chromium-driver} where it can.
 */
final class ChromiumBrowser implements AutoCloseable {

	/** The names the browser goes by on the {@code PATH}, in the order they are tried. */
	static final List<String> BROWSER_NAMES = List.of("chromium", "chromium-browser", "google-chrome");

	static final String DRIVER_NAME = "chromedriver";

	private static final String INSTALL = "install Debian's browser and driver with 'apt-get update && "
			+ "apt-get install -y chromium chromium-driver' (./run-tests.sh does so where it can)";

	private final Path profile;

	private final ChromeDriver driver;

	private ChromiumBrowser(Path profile, ChromeDriver driver) {
		this.profile = profile;
		this.driver = driver;
	}

	/**
	 * Starts the browser.
	 * @param width the window width in pixels
	 * @param height the window height in pixels
	 * @return the running browser; close it
	 * @throws IllegalStateException if chromium or chromedriver is not installed
	 */
	static ChromiumBrowser start(int width, int height) {
		Path browser = ExecutableSearch.onPath(BROWSER_NAMES)
			.orElseThrow(() -> new IllegalStateException("No browser on the PATH (looked for "
					+ String.join(", ", BROWSER_NAMES) + " in " + ExecutableSearch.path() + "): " + INSTALL));
		Path chromedriver = ExecutableSearch.onPath(List.of(DRIVER_NAME))
			.orElseThrow(() -> new IllegalStateException("No " + DRIVER_NAME + " on the PATH ("
					+ ExecutableSearch.path() + "): " + INSTALL));
		Path profile = createProfileDirectory();
		ChromeOptions options = new ChromeOptions();
		options.setBinary(browser.toFile());
		options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
				"--disable-background-networking", "--disable-component-update", "--disable-sync",
				"--no-first-run", "--no-default-browser-check", "--window-size=" + width + "," + height,
				"--user-data-dir=" + profile);
		ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(chromedriver.toFile())
			.usingAnyFreePort()
			.withTimeout(Duration.ofSeconds(60))
			.build();
		try {
			ChromeDriver driver = new ChromeDriver(service, options);
			driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30)).scriptTimeout(Duration.ofSeconds(30));
			return new ChromiumBrowser(profile, driver);
		}
		catch (RuntimeException ex) {
			deleteRecursively(profile);
			throw ex;
		}
	}

	ChromeDriver driver() {
		return this.driver;
	}

	@Override
	public void close() {
		try {
			this.driver.quit();
		}
		finally {
			deleteRecursively(this.profile);
		}
	}

	private static Path createProfileDirectory() {
		try {
			return Files.createTempDirectory("zklock-chromium-profile-");
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot create a chromium profile directory", ex);
		}
	}

	private static void deleteRecursively(Path directory) {
		try (Stream<Path> paths = Files.walk(directory)) {
			for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
				Files.deleteIfExists(path);
			}
		}
		catch (IOException ex) {
			// a profile file chromium still writes while it exits: the directory is temporary
		}
	}

}
