package io.zklock.kotlin

import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration

/** Runs the Kotlin sample of docs/usage.md ([Exports]) against a real server. */
@Timeout(60)
class ReadmeKotlinSampleTests : ZkKotlinTest() {

	@Test
	fun shouldExportUnderTheLockWithItsFencingToken() {
		lockingContext().withUserConfiguration(ExportConfiguration::class.java).run { context ->
			val report = runBlocking { context.getBean(Exports::class.java).export("r1") }
			assertThat(report.id).isEqualTo("r1")
			assertThat(report.fencingToken).isPositive()
		}
	}

	@Configuration(proxyBeanMethods = false)
	open class ExportConfiguration {

		@Bean
		open fun exports() = Exports(Renderer())

	}

}
