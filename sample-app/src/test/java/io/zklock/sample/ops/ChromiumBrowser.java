package io.zklock.sample.ops;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;

import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A headless Debian {@code chromium} driven through Debian's {@code chromedriver}, with a
 * fresh profile that is deleted on {@link #close()}. Fails, never skips, when either is not
 * installed: {@code .ci/run} installs both with {@code apt-get install chromium
 * chromium-driver}.
 */
final class ChromiumBrowser implements AutoCloseable {

	static final Path CHROMIUM = Path.of("/usr/bin/chromium");

	static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

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
		for (Path executable : new Path[] { CHROMIUM, CHROMEDRIVER }) {
			if (!Files.isExecutable(executable)) {
				throw new IllegalStateException(executable + " is missing: install Debian's browser and driver with "
						+ "'apt-get update && apt-get install -y chromium chromium-driver' (as .ci/run does)");
			}
		}
		Path profile = createProfileDirectory();
		ChromeOptions options = new ChromeOptions();
		options.setBinary(CHROMIUM.toFile());
		options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
				"--disable-background-networking", "--disable-component-update", "--disable-sync",
				"--no-first-run", "--no-default-browser-check", "--window-size=" + width + "," + height,
				"--user-data-dir=" + profile);
		ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
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
