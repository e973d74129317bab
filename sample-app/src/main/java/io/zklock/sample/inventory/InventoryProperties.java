package io.zklock.sample.inventory;

import java.nio.file.Path;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the sample inventory.
 */
@ConfigurationProperties("sample.inventory")
public class InventoryProperties {

	/**
	 * Directory of the stock files, one per SKU; instances that share stock use the same one.
	 */
	private Path dir = Path.of(System.getProperty("java.io.tmpdir"), "zklock-sample-inventory");

	/**
	 * Simulated work between reading and writing the stock of a reservation.
	 */
	private Duration workPause = Duration.ofMillis(3);

	public Path getDir() {
		return this.dir;
	}

	public void setDir(Path dir) {
		this.dir = dir;
	}

	public Duration getWorkPause() {
		return this.workPause;
	}

	public void setWorkPause(Duration workPause) {
		this.workPause = workPause;
	}

}
