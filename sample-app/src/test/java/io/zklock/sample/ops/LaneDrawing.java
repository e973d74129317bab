package io.zklock.sample.ops;

import java.util.List;
import java.util.Map;

import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;

/**
 * What the live page draws for one lock path at one moment, read in a single script call
 * (the page redraws on every poll, so elements found one by one may belong to different
 * drawings).
 *
 * @param text the lane's visible text, empty if the lane is not drawn
 * @param holders the holder cards, left to right
 * @param waiters the waiter cards, in line order
 * @param holderDrawnFirst whether the holders box comes before the waiters in the lane
 */
record LaneDrawing(String text, List<DrawnNode> holders, List<DrawnNode> waiters, boolean holderDrawnFirst) {

	private static final String SCRIPT = """
			const lane = Array.from(document.querySelectorAll('section.lane'))
				.find((section) => section.dataset.lockPath === arguments[0]);
			if (!lane) {
				return { text: '', holders: [], waiters: [], holderDrawnFirst: false };
			}
			const card = (node) => ({ fencingToken: node.dataset.fencingToken, text: node.innerText });
			const holders = lane.querySelector('.holders');
			const waiters = lane.querySelector('.waiters');
			return {
				text: lane.innerText,
				holders: Array.from(lane.querySelectorAll('.holders .node.holder')).map(card),
				waiters: Array.from(lane.querySelectorAll('.waiters .node.waiter')).map(card),
				holderDrawnFirst: !!holders && !!waiters
					&& !!(holders.compareDocumentPosition(waiters) & Node.DOCUMENT_POSITION_FOLLOWING)
			};
			""";

	/**
	 * Reads the drawing of a lock path.
	 * @param driver the browser showing the page
	 * @param lockPath the lock path
	 * @return the drawing; empty if the lane is not drawn
	 */
	@SuppressWarnings("unchecked")
	static LaneDrawing read(WebDriver driver, String lockPath) {
		Map<String, Object> result = (Map<String, Object>) ((JavascriptExecutor) driver).executeScript(SCRIPT,
				lockPath);
		return new LaneDrawing((String) result.get("text"), nodes(result.get("holders")), nodes(result.get("waiters")),
				Boolean.TRUE.equals(result.get("holderDrawnFirst")));
	}

	@SuppressWarnings("unchecked")
	private static List<DrawnNode> nodes(Object cards) {
		return ((List<Map<String, Object>>) cards).stream()
			.map((card) -> new DrawnNode(Long.parseLong((String) card.get("fencingToken")), (String) card.get("text")))
			.toList();
	}

}
