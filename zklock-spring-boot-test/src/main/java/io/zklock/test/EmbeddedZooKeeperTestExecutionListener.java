package io.zklock.test;

import org.springframework.test.annotation.DirtiesContext.HierarchyMode;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.TestContextAnnotationUtils;
import org.springframework.test.context.support.AbstractTestExecutionListener;

/**
 * Closes the application context of a class that carries {@link EmbeddedZooKeeper} after the
 * class, as {@code @DirtiesContext} would: its server stops then, so the context (and its
 * Curator client) must not stay in the context cache. Registered in
 * {@code META-INF/spring.factories}.
 */
class EmbeddedZooKeeperTestExecutionListener extends AbstractTestExecutionListener {

	/** Just before DirtiesContextTestExecutionListener (3000), so after it on the way out. */
	private static final int ORDER = 2999;

	@Override
	public int getOrder() {
		return ORDER;
	}

	@Override
	public void afterTestClass(TestContext testContext) {
		if (TestContextAnnotationUtils.hasAnnotation(testContext.getTestClass(), EmbeddedZooKeeper.class)) {
			testContext.markApplicationContextDirty(HierarchyMode.EXHAUSTIVE);
		}
	}

}
