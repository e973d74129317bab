package io.zklock.kotlin

import io.zklock.annotation.DistributedLock
import io.zklock.annotation.LockContext
import io.zklock.annotation.OnLockFailure
import io.zklock.annotation.ReactiveLockContext
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.delay
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.reactor.ReactorContext
import kotlinx.coroutines.reactor.awaitSingle
import kotlinx.coroutines.withContext
import kotlinx.coroutines.yield
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.atomic.AtomicInteger

/** Counts the bodies that run at once, and the most ever seen. Thread-safe. */
class BodiesAtOnce {

	private val running = AtomicInteger()

	private val most = AtomicInteger()

	private val entered = AtomicInteger()

	fun enter() {
		entered.incrementAndGet()
		most.accumulateAndGet(running.incrementAndGet(), Math::max)
	}

	fun exit() {
		running.decrementAndGet()
	}

	fun max(): Int = most.get()

	fun entered(): Int = entered.get()

}

/** What a body saw of its lock: fencing tokens, lock paths, threads. */
data class Seen(val tokens: List<Long>, val paths: List<String>, val threads: List<String>, val threadBound: Boolean)

/**
 * Suspend functions under `@DistributedLock`. `open`, so that Spring's class proxy can
 * override them.
 */
open class SuspendingReports(private val inner: InnerReports) {

	open val bodies = BodiesAtOnce()

	open val events: MutableList<String> = CopyOnWriteArrayList()

	@DistributedLock(path = "kt/render")
	open suspend fun render(entered: CompletableDeferred<Unit>, proceed: CompletableDeferred<Unit>): String {
		try {
			entered.complete(Unit)
			withContext(Dispatchers.IO) { yield() }
			proceed.await()
			delay(10)
			events.add("completed")
			return "rendered"
		}
		catch (ex: kotlinx.coroutines.CancellationException) {
			events.add("cancelled")
			throw ex
		}
	}

	@DistributedLock(path = "kt/exclusive", waitTime = "30s")
	open suspend fun exclusive(): Int {
		bodies.enter()
		try {
			delay(20)
			withContext(Dispatchers.IO) { Thread.sleep(5) } // work on another thread, still under the lock
			yield()
			delay(20)
			return bodies.entered()
		}
		finally {
			bodies.exit()
		}
	}

	@DistributedLock(path = "kt/failing")
	open suspend fun failing(): String {
		delay(10)
		throw IllegalStateException("boom")
	}

	@DistributedLock(path = "kt/token")
	open suspend fun token(): Seen {
		val tokens = mutableListOf<Long>()
		val threads = mutableListOf<String>()
		tokens += ReactiveLockContext.currentToken().awaitSingle()
		threads += Thread.currentThread().name
		delay(10)
		withContext(Dispatchers.IO) {
			tokens += ReactiveLockContext.currentToken().awaitSingle()
			threads += Thread.currentThread().name
		}
		withContext(Dispatchers.Default) {
			tokens += ReactiveLockContext.lockIn(coroutineContext[ReactorContext]!!.context).orElseThrow().fencingToken()
			threads += Thread.currentThread().name
		}
		return Seen(tokens, listOf(), threads, LockContext.currentLock().isPresent)
	}

	@DistributedLock(path = "kt/outer")
	open suspend fun outer(): Map<String, List<String>> {
		val inside = inner.inner()
		delay(5)
		val after = ReactiveLockContext.currentLocks().awaitSingle().map { it.lockPath() }
		return inside + mapOf("outer after inner" to after)
	}

	@DistributedLock(path = "kt/keyed", key = "#id")
	open suspend fun keyed(id: String): String {
		delay(5)
		return ReactiveLockContext.currentLock().awaitSingle().lockPath()
	}

	@DistributedLock(path = "kt/skip", waitTime = "0", onFailure = OnLockFailure.SKIP)
	open suspend fun skippable(): String? {
		delay(5)
		return "ran"
	}

	@DistributedLock(path = "kt/unit", waitTime = "0", onFailure = OnLockFailure.SKIP)
	open suspend fun record(event: String) {
		delay(5)
		events.add(event)
	}

	@DistributedLock(path = "kt/hold", holdAtLeast = "1s")
	open suspend fun quickJob(): String {
		delay(5)
		return "done"
	}

	@DistributedLock(path = "kt/flow")
	open suspend fun numbers(proceed: CompletableDeferred<Unit>): Flow<Int> {
		delay(5)
		return flow {
			emit(1)
			proceed.await()
			emit(2)
		}
	}

}

open class InnerReports {

	@DistributedLock(path = "kt/inner")
	open suspend fun inner(): Map<String, List<String>> {
		delay(5)
		val locks = ReactiveLockContext.currentLocks().awaitSingle().map { it.lockPath() }
		val current = ReactiveLockContext.currentLock().awaitSingle().lockPath()
		return mapOf("inner locks" to locks, "inner current" to listOf(current))
	}

}
