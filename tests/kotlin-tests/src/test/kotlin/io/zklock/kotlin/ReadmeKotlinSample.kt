package io.zklock.kotlin

import io.zklock.annotation.DistributedLock
import io.zklock.annotation.ReactiveLockContext
import kotlinx.coroutines.reactor.awaitSingle

data class Report(val id: String, val fencingToken: Long)

open class Renderer {
	open suspend fun render(id: String, token: Long) = Report(id, token)
}

/**
 * The Kotlin sample of docs/usage.md, shown there as it is between the tags; run by
 * [ReadmeKotlinSampleTests].
 */
open class Exports(private val renderer: Renderer) {

	// tag::suspend[]
	@DistributedLock(path = "exports", key = "#id")
	open suspend fun export(id: String): Report {
		val token = ReactiveLockContext.currentToken().awaitSingle()
		return renderer.render(id, token)            // suspends; the lock stays held
	}
	// end::suspend[]

}
