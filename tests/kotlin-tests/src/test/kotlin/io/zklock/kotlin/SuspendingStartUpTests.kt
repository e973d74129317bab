package io.zklock.kotlin

import io.zklock.annotation.DistributedLock
import io.zklock.annotation.InvalidLockAnnotationException
import io.zklock.annotation.OnLockFailure
import kotlinx.coroutines.delay
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration

/**
 * Start-up checks of `@DistributedLock` on suspend functions: `onFailure = SKIP` needs a
 * result that may be null (a skipped call returns null), or `Unit`.
 */
@Timeout(60)
class SuspendingStartUpTests : ZkKotlinTest() {

	private val contextRunner = lockingContext()

	@Test
	fun shouldRefuseSkipOnASuspendFunctionWhoseResultCannotBeNull() {
		contextRunner.withUserConfiguration(NonNullSkipConfiguration::class.java).run { context ->
			assertThat(context).hasFailed()
			// the function as written in Kotlin, and the fix, through zklock's failure analysis
			assertThat(context.startupFailure).rootCause().isInstanceOf(InvalidLockAnnotationException::class.java)
				.hasMessageContaining("NonNullSkip.count()")
				.hasMessageContaining("onFailure = SKIP but is a suspend function whose result type (Integer on the JVM) is not nullable")
				.hasMessageContaining("Declare the result type nullable")
		}
	}

	@Test
	fun shouldAcceptSkipOnSuspendFunctionsReturningNullableTypesOrUnit() {
		contextRunner.withUserConfiguration(SkippableConfiguration::class.java).run { context ->
			assertThat(context).hasNotFailed()
		}
	}

	open class NonNullSkip {

		@DistributedLock(path = "kt/non-null", waitTime = "0", onFailure = OnLockFailure.SKIP)
		open suspend fun count(): Int {
			delay(1)
			return 1
		}

	}

	open class Skippable {

		@DistributedLock(path = "kt/nullable", waitTime = "0", onFailure = OnLockFailure.SKIP)
		open suspend fun count(): Int? {
			delay(1)
			return 1
		}

		@DistributedLock(path = "kt/unit", waitTime = "0", onFailure = OnLockFailure.SKIP)
		open suspend fun work() {
			delay(1)
		}

	}

	@Configuration(proxyBeanMethods = false)
	open class NonNullSkipConfiguration {

		@Bean
		open fun nonNullSkip() = NonNullSkip()

	}

	@Configuration(proxyBeanMethods = false)
	open class SkippableConfiguration {

		@Bean
		open fun skippable() = Skippable()

	}

}
