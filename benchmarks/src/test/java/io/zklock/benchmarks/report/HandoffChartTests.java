package io.zklock.benchmarks.report;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class HandoffChartTests {

	@Test
	void shouldWriteAPngWithOneLinePerSeries(@TempDir Path directory) throws Exception {
		Map<String, SortedMap<Integer, Double>> series = new LinkedHashMap<>();
		series.put("zklock", new TreeMap<>(Map.of(1, 900.0, 2, 1500.0, 4, 1800.0)));
		series.put("Curator", new TreeMap<>(Map.of(1, 1000.0, 2, 1400.0, 4, 1600.0)));
		Path file = directory.resolve("chart.png");

		HandoffChart.write("Scenario 3", series, file);

		BufferedImage image = ImageIO.read(file.toFile());
		assertThat(image.getWidth()).isEqualTo(900);
		assertThat(image.getHeight()).isEqualTo(560);
		assertThat(countPixels(image, 0xD62728)).as("zklock's red line").isGreaterThan(100);
		assertThat(countPixels(image, 0x1F77B4)).as("Curator's blue line").isGreaterThan(100);
	}

	@Test
	void shouldRoundTheAxisUpToANiceFigure() {
		assertThat(HandoffChart.niceCeiling(3355)).isEqualTo(5000);
		assertThat(HandoffChart.niceCeiling(1800)).isEqualTo(2000);
		assertThat(HandoffChart.niceCeiling(2100)).isEqualTo(2500);
		assertThat(HandoffChart.niceCeiling(0)).isEqualTo(1);
	}

	private static int countPixels(BufferedImage image, int rgb) {
		int count = 0;
		for (int x = 0; x < image.getWidth(); x++) {
			for (int y = 0; y < image.getHeight(); y++) {
				if ((image.getRGB(x, y) & 0xFFFFFF) == rgb) {
					count++;
				}
			}
		}
		return count;
	}

}
