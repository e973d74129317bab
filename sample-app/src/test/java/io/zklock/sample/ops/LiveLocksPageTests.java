package io.zklock.sample.ops;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

import io.zklock.internal.LockPaths;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests the live page at {@code /} in a real browser (headless Chromium): the page is drawn
 * by the time it has loaded, with no wait for a poll; while one thread holds the lock of an
 * inventory SKU and another waits for it, the page draws that SKU's queue with the holder
 * first, showing its holder thread, and the waiter behind it; and it shows who leads the sample's
 * leader-only audit (this instance, with its term's token). Leaves screenshots at
 * {@code target/live-locks-page-on-load.png} (taken as the page finished loading) and
 * {@code target/live-locks-page.png}.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "server.address=127.0.0.1", "zklock.zookeeper.embedded.enabled=true",
				"zklock.zookeeper.embedded.port=0" })
@Tag("slow")
class LiveLocksPageTests {

	private static final Path INVENTORY_DIRECTORY = createDirectory();

	private static final Path SCREENSHOT = Path.of("target", "live-locks-page.png");

	private static final Path SCREENSHOT_ON_LOAD = Path.of("target", "live-locks-page-on-load.png");

	private static final Duration PAGE_WAIT = Duration.ofSeconds(20);

	// the lock path a @DistributedLock(path = "inventory", key = ...) gives for the key
	// "sku/live": one encoded segment, which the page shows decoded
	private static final String LOCK_PATH = "inventory/" + LockPaths.encodeSegment("sku/live");

	private static final String DISPLAY_PATH = "inventory/sku/live";

	// named threads: the page shows the holder's thread name (the test thread's changes while
	// Selenium sends commands)
	private final ExecutorService holderThread = Executors
		.newSingleThreadExecutor((task) -> new Thread(task, "live-page-holder"));

	private final ExecutorService waiterThread = Executors
		.newSingleThreadExecutor((task) -> new Thread(task, "live-page-waiter"));

	@Autowired
	private ILockByCurator locks;

	@LocalServerPort
	private int port;

	@DynamicPropertySource
	static void inventoryDirectory(DynamicPropertyRegistry registry) {
		registry.add("sample.inventory.dir", INVENTORY_DIRECTORY::toString);
	}

	@AfterEach
	void stopThreads() throws InterruptedException {
		for (ExecutorService thread : new ExecutorService[] { this.holderThread, this.waiterThread }) {
			thread.shutdownNow();
			assertThat(thread.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
		}
	}

	@AfterAll
	static void deleteInventoryDirectory() throws IOException {
		try (Stream<Path> paths = Files.walk(INVENTORY_DIRECTORY)) {
			for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
				Files.deleteIfExists(path);
			}
		}
	}

	@Test
	@Timeout(120)
	void shouldDrawHolderFirstAndWaiterBehindIt() throws Exception {
		CountDownLatch release = new CountDownLatch(1);
		CompletableFuture<Long> holding = new CompletableFuture<>();
		CompletableFuture<Void> holder = CompletableFuture.runAsync(() -> {
			try (LockHandle lock = this.locks.acquire(LOCK_PATH, LockMode.EXCLUSIVE)) {
				holding.complete(lock.fencingToken());
				assertThat(release.await(60, TimeUnit.SECONDS)).isTrue();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}, this.holderThread);
		long fencingToken = holding.get(30, TimeUnit.SECONDS);
		CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(
				() -> this.locks.tryAcquire(LOCK_PATH, Duration.ofSeconds(60)).map(LockHandle::release).isPresent(),
				this.waiterThread);
		try (ChromiumBrowser browser = ChromiumBrowser.start(1280, 640)) {
			ChromeDriver driver = browser.driver();
			// get() returns once the page has loaded: it must be drawn by then, without a wait
			driver.get("http://127.0.0.1:" + this.port + "/?watch=inventory&interval=200");
			saveScreenshot(driver, SCREENSHOT_ON_LOAD);
			LaneDrawing onLoad = LaneDrawing.read(driver, LOCK_PATH);
			assertThat(driver.findElement(By.id("updated")).getText()).as("'updated' on load").isNotEqualTo("never");
			assertThat(driver.findElement(By.id("health")).getText()).as("health on load").isEqualTo("zklock UP");
			assertThat(onLoad.holders()).as("holder cards on load").hasSize(1);
			assertThat(onLoad.holders().get(0).fencingToken()).isEqualTo(fencingToken);
			// this instance's holder shows the thread that holds it
			assertThat(onLoad.holders().get(0).text()).contains("★ thread live-page-holder");
			assertThat(driver.findElement(By.id("held")).getText()).as("held by this instance, on load")
				.contains(DISPLAY_PATH, "live-page-holder");
			WebDriverWait wait = new WebDriverWait(driver, PAGE_WAIT);
			wait.withMessage(() -> "the page shows:\n" + driver.findElement(By.tagName("body")).getText());
			// the page redraws on every poll: read each drawing in one script call
			LaneDrawing drawing = wait.until((d) -> {
				LaneDrawing current = LaneDrawing.read(driver, LOCK_PATH);
				return (current.holders().size() == 1 && current.waiters().size() == 1) ? current : null;
			});
			assertThat(drawing.holderDrawnFirst()).isTrue();
			DrawnNode holderCard = drawing.holders().get(0);
			assertThat(holderCard.fencingToken()).isEqualTo(fencingToken);
			assertThat(holderCard.text()).contains("EXCLUSIVE", "held ", "fencing token " + fencingToken,
					"★ thread live-page-holder");
			DrawnNode waiterCard = drawing.waiters().get(0);
			assertThat(waiterCard.fencingToken()).isGreaterThan(fencingToken);
			assertThat(waiterCard.text()).contains("EXCLUSIVE", "waiting ", "next");
			assertThat(driver.findElement(By.id("health")).getText()).isEqualTo("zklock UP");
			assertThat(driver.findElement(By.id("held")).getText()).contains(DISPLAY_PATH, "live-page-holder");
			// who leads the sample's audit: this instance, its only candidate
			String audit = wait.until((d) -> {
				String row = driver.findElement(By.id("roles")).getText();
				return row.contains("LEADER") ? row : null;
			});
			assertThat(audit).contains("inventory-audit", "★", "token ");
			saveScreenshot(driver, SCREENSHOT);

			release.countDown();
			holder.get(30, TimeUnit.SECONDS);
			assertThat(waiter.get(30, TimeUnit.SECONDS)).isTrue();
			LaneDrawing free = wait.until((d) -> {
				LaneDrawing current = LaneDrawing.read(driver, LOCK_PATH);
				return (current.holders().isEmpty() && current.waiters().isEmpty()) ? current : null;
			});
			assertThat(free.text()).contains(DISPLAY_PATH, "free");
			assertThat(driver.findElements(By.cssSelector("#error:not([hidden])"))).isEmpty();
		}
		finally {
			release.countDown();
		}
	}

	private static void saveScreenshot(ChromeDriver driver, Path target) throws IOException {
		Path screenshot = driver.getScreenshotAs(OutputType.FILE).toPath();
		Files.createDirectories(target.getParent());
		Files.move(screenshot, target, StandardCopyOption.REPLACE_EXISTING);
	}

	private static Path createDirectory() {
		try {
			return Files.createTempDirectory("zklock-live-page-");
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot create a temporary inventory directory", ex);
		}
	}

}
