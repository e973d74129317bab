package io.zklock.interceptor;

import java.lang.annotation.Annotation;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.DistributedSemaphore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * Tests for {@link LockedMethods}: it finds what the advisor applies to, wherever the
 * annotation sits, mapped to the bean class's own methods.
 */
class LockedMethodsTests {

	@Test
	void shouldFindAnnotationsWhereverTheAdvisorFindsThem() throws Exception {
		Map<Method, Class<? extends Annotation>> found = LockedMethods.of(Service.class);
		assertThat(found).containsOnly(entry(Service.class.getDeclaredMethod("direct"), DistributedLock.class),
				entry(Service.class.getDeclaredMethod("composed"), DistributedLock.class),
				entry(Service.class.getDeclaredMethod("repeated"), DistributedLock.class),
				entry(Service.class.getDeclaredMethod("permit"), DistributedSemaphore.class),
				entry(Service.class.getDeclaredMethod("fromInterface", String.class), DistributedLock.class),
				entry(Service.class.getDeclaredMethod("fromSuperclass"), DistributedLock.class),
				entry(Service.class.getDeclaredMethod("hidden"), DistributedLock.class),
				entry(Service.class.getDeclaredMethod("shared"), DistributedLock.class));
	}

	@Test
	void shouldSkipClassesWithoutAnyAndJdkClasses() {
		assertThat(LockedMethods.of(Plain.class)).isEmpty();
		assertThat(LockedMethods.of(ArrayList.class)).isEmpty();
	}

	@Test
	void shouldNameMethodsOfAnonymousClassesToo() throws Exception {
		Object anonymous = new Object() {
			@DistributedLock(path = "x")
			public void work(String id) {
			}
		};
		Method work = anonymous.getClass().getDeclaredMethod("work", String.class);
		assertThat(LockedMethods.describe(work)).isEqualTo("LockedMethodsTests.1.work(String)");
		assertThat(LockedMethods.describe(Service.class.getDeclaredMethod("fromInterface", String.class)))
			.isEqualTo("Service.fromInterface(String)");
	}

	@Target(ElementType.METHOD)
	@Retention(RetentionPolicy.RUNTIME)
	@DistributedLock(path = "composed")
	@interface ComposedLock {

	}

	interface Shipping<T> {

		@DistributedLock(path = "interface", key = "#p0")
		void fromInterface(T id);

	}

	static class Base {

		@DistributedLock(path = "superclass")
		public void fromSuperclass() {
		}

	}

	static class Service extends Base implements Shipping<String> {

		@DistributedLock(path = "direct")
		public void direct() {
		}

		@ComposedLock
		public void composed() {
		}

		@DistributedLock(path = "a")
		@DistributedLock(path = "b")
		public void repeated() {
		}

		@DistributedSemaphore(path = "permits", permits = 2)
		public void permit() {
		}

		@Override
		public void fromInterface(String id) {
		}

		@Override
		public void fromSuperclass() {
		}

		public void unlocked() {
		}

		@DistributedLock(path = "hidden")
		private void hidden() {
		}

		@DistributedLock(path = "shared")
		static void shared() {
		}

	}

	static class Plain {

		public void work() {
		}

	}

}
