package io.zklock.benchmarks.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;

import javax.imageio.ImageIO;

/**
 * Draws scenario 3's chart with Java2D: handoffs per second (y, from 0) against the number of
 * clients (x, logarithmic: 1, 2, 4 … 32), one line per library, as a PNG.
 */
public final class HandoffChart {

	private static final int WIDTH = 900;

	private static final int HEIGHT = 560;

	private static final int LEFT = 90;

	private static final int RIGHT = 200;

	private static final int TOP = 60;

	private static final int BOTTOM = 70;

	private static final Color[] COLORS = { new Color(0xD6, 0x27, 0x28), new Color(0x1F, 0x77, 0xB4),
			new Color(0x2C, 0xA0, 0x2C), new Color(0x94, 0x67, 0xBD) };

	private HandoffChart() {
	}

	/**
	 * Writes the chart.
	 * @param title the title line
	 * @param series handoffs per second by client count, per series name, in legend order
	 * @param file the PNG to write
	 * @throws IOException if the file cannot be written
	 */
	public static void write(String title, Map<String, ? extends SortedMap<Integer, Double>> series, Path file)
			throws IOException {
		BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
		Graphics2D g = image.createGraphics();
		try {
			g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
			g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
			g.setColor(Color.WHITE);
			g.fillRect(0, 0, WIDTH, HEIGHT);
			draw(g, title, series);
		}
		finally {
			g.dispose();
		}
		Files.createDirectories(file.toAbsolutePath().getParent());
		if (!ImageIO.write(image, "png", file.toFile())) {
			throw new IOException("No PNG writer available for " + file);
		}
	}

	private static void draw(Graphics2D g, String title, Map<String, ? extends SortedMap<Integer, Double>> series) {
		List<Integer> clients = new ArrayList<>();
		double max = 0;
		for (SortedMap<Integer, Double> points : series.values()) {
			for (Map.Entry<Integer, Double> point : points.entrySet()) {
				if (!clients.contains(point.getKey())) {
					clients.add(point.getKey());
				}
				max = Math.max(max, point.getValue());
			}
		}
		clients.sort(null);
		if (clients.isEmpty()) {
			return;
		}
		double top = niceCeiling(max);
		int plotWidth = WIDTH - LEFT - RIGHT;
		int plotHeight = HEIGHT - TOP - BOTTOM;
		double minLog = log2(clients.get(0));
		double maxLog = Math.max(minLog + 1, log2(clients.get(clients.size() - 1)));

		g.setColor(Color.BLACK);
		g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
		g.drawString(title, LEFT, 32);

		g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
		FontMetrics metrics = g.getFontMetrics();
		for (int i = 0; i <= 5; i++) {
			double value = top * i / 5;
			int y = TOP + plotHeight - (int) Math.round(plotHeight * value / top);
			g.setColor(new Color(0xE0, 0xE0, 0xE0));
			g.drawLine(LEFT, y, LEFT + plotWidth, y);
			g.setColor(Color.DARK_GRAY);
			String label = String.format(Locale.ROOT, "%,.0f", value);
			g.drawString(label, LEFT - 8 - metrics.stringWidth(label), y + 4);
		}
		for (int count : clients) {
			int x = xOf(count, minLog, maxLog, plotWidth);
			g.setColor(new Color(0xE0, 0xE0, 0xE0));
			g.drawLine(x, TOP, x, TOP + plotHeight);
			g.setColor(Color.DARK_GRAY);
			String label = Integer.toString(count);
			g.drawString(label, x - metrics.stringWidth(label) / 2, TOP + plotHeight + 18);
		}
		g.setColor(Color.BLACK);
		g.drawRect(LEFT, TOP, plotWidth, plotHeight);
		String xLabel = "clients (one thread each, one session each)";
		g.drawString(xLabel, LEFT + plotWidth / 2 - metrics.stringWidth(xLabel) / 2, TOP + plotHeight + 42);
		Graphics2D rotated = (Graphics2D) g.create();
		rotated.rotate(-Math.PI / 2);
		String yLabel = "handoffs per second";
		rotated.drawString(yLabel, -(TOP + plotHeight / 2 + metrics.stringWidth(yLabel) / 2), 24);
		rotated.dispose();

		int index = 0;
		for (Map.Entry<String, ? extends SortedMap<Integer, Double>> entry : series.entrySet()) {
			Color color = COLORS[index % COLORS.length];
			g.setColor(color);
			g.setStroke(new BasicStroke(2.5f));
			int[] previous = null;
			for (Map.Entry<Integer, Double> point : entry.getValue().entrySet()) {
				int x = xOf(point.getKey(), minLog, maxLog, plotWidth);
				int y = TOP + plotHeight - (int) Math.round(plotHeight * point.getValue() / top);
				if (previous != null) {
					g.drawLine(previous[0], previous[1], x, y);
				}
				g.fillOval(x - 4, y - 4, 8, 8);
				previous = new int[] { x, y };
			}
			int legendY = TOP + 20 + index * 24;
			g.drawLine(LEFT + plotWidth + 20, legendY - 4, LEFT + plotWidth + 50, legendY - 4);
			g.fillOval(LEFT + plotWidth + 31, legendY - 8, 8, 8);
			g.setColor(Color.BLACK);
			g.drawString(entry.getKey(), LEFT + plotWidth + 58, legendY);
			index++;
		}
	}

	private static int xOf(int clients, double minLog, double maxLog, int plotWidth) {
		int margin = 30;
		return LEFT + margin + (int) Math.round((plotWidth - 2 * margin) * (log2(clients) - minLog) / (maxLog - minLog));
	}

	private static double log2(double value) {
		return Math.log(value) / Math.log(2);
	}

	/**
	 * The smallest 1, 2, 2.5 or 5 × 10^n at or above {@code value}, for the y axis.
	 * @param value the largest figure
	 * @return the axis maximum
	 */
	static double niceCeiling(double value) {
		if (value <= 0) {
			return 1;
		}
		double magnitude = Math.pow(10, Math.floor(Math.log10(value)));
		for (double step : new double[] { 1, 2, 2.5, 5, 10 }) {
			if (step * magnitude >= value) {
				return step * magnitude;
			}
		}
		return 10 * magnitude;
	}

}
