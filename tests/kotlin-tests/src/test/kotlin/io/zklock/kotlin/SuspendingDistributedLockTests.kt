package io.zklock.kotlin

import io.zklock.lock.ILockByCurator
import io.zklock.lock.LockHandle
import io.zklock.lock.LockMode
import io.zklock.lock.ReleaseResult
import io.zklock.lock.event.LockListener
import io.zklock.lock.event.LockTarget
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeout
import org.assertj.core.api.Assertions.assertThat
import org.awaitility.Awaitility.await
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import org.springframework.context.ApplicationContext
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import java.time.Duration
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.CopyOnWriteArrayList

/**
 * `@DistributedLock` on Kotlin `suspend` functions, on a real ZooKeeper server: the lock is
 * held across suspension points until the coroutine completes (or for its `holdAtLeast`), bodies
 * never overlap, the lock goes when the function throws or its coroutine is cancelled, and the
 * lock and its fencing token are read inside through the Reactor context
 * (`ReactiveLockContext`).
 */
@Timeout(120)
class SuspendingDistributedLockTests : ZkKotlinTest() {

	companion object {

		private const val TIMEOUT_MS = 30_000L

	}

	private val contextRunner = lockingContext()
		.withUserConfiguration(KotlinConfiguration::class.java)

	@Test
	fun shouldHoldTheLockAcrossSuspensionPointsUntilTheCoroutineCompletes() = inContext { context ->
		val reports = context.getBean(SuspendingReports::class.java)
		val entered = CompletableDeferred<Unit>()
		val proceed = CompletableDeferred<Unit>()
		val call = async { reports.render(entered, proceed) }
		entered.await()
		assertThat(otherCanLock(context, "kt/render")).`as`("held while the body is suspended").isFalse()
		assertThat(call.isActive).isTrue()
		proceed.complete(Unit)
		assertThat(call.await()).isEqualTo("rendered")
		assertThat(otherCanLock(context, "kt/render")).`as`("released when the coroutine completed").isTrue()
		assertThat(reports.events).containsExactly("completed")
	}

	@Test
	fun shouldNeverRunTwoBodiesAtOnce() = inContext { context ->
		val reports = context.getBean(SuspendingReports::class.java)
		val calls = (1..4).map { async(Dispatchers.Default) { reports.exclusive() } }
		calls.awaitAll()
		assertThat(reports.bodies.entered()).isEqualTo(4)
		assertThat(reports.bodies.max()).`as`("bodies at once").isEqualTo(1)
		assertThat(context.getBean(Grants::class.java).tokens("kt/exclusive")).hasSize(4).doesNotHaveDuplicates()
	}

	@Test
	fun shouldReleaseWhenTheFunctionThrows() = inContext { context ->
		val reports = context.getBean(SuspendingReports::class.java)
		val failure = runCatching { reports.failing() }.exceptionOrNull()
		assertThat(failure).isInstanceOf(IllegalStateException::class.java).hasMessage("boom")
		assertThat(otherCanLock(context, "kt/failing")).isTrue()
	}

	@Test
	fun shouldReleaseWhenTheCoroutineIsCancelled() = inContext { context ->
		val reports = context.getBean(SuspendingReports::class.java)
		val entered = CompletableDeferred<Unit>()
		val job = launch { reports.render(entered, CompletableDeferred()) }
		entered.await()
		assertThat(otherCanLock(context, "kt/render")).isFalse()
		job.cancelAndJoin()
		withContext(Dispatchers.IO) {
			await().atMost(Duration.ofSeconds(10)).until { otherCanLockBlocking(context, "kt/render") }
		}
		assertThat(reports.events).containsExactly("cancelled")
	}

	@Test
	fun shouldGiveTheLockAndItsFencingTokenInsideThroughTheReactorContext() = inContext { context ->
		val reports = context.getBean(SuspendingReports::class.java)
		val seen = reports.token()
		val granted = context.getBean(Grants::class.java).tokens("kt/token")
		assertThat(granted).hasSize(1)
		assertThat(seen.tokens).hasSize(3).containsOnly(granted[0])
		assertThat(seen.threads).anySatisfy { assertThat(it).startsWith("DefaultDispatcher-worker") }
		assertThat(seen.threadBound).`as`("LockContext is bound to threads: not set in a coroutine").isFalse()
	}

	@Test
	fun shouldStackNestedSuspendCallsInnermostLast() = inContext { context ->
		val seen = context.getBean(SuspendingReports::class.java).outer()
		assertThat(seen["inner locks"]).containsExactly("kt/outer", "kt/inner")
		assertThat(seen["inner current"]).containsExactly("kt/inner")
		assertThat(seen["outer after inner"]).containsExactly("kt/outer")
	}

	@Test
	fun shouldResolveKeysOverTheFunctionsParameters() = inContext { context ->
		assertThat(context.getBean(SuspendingReports::class.java).keyed("42")).isEqualTo("kt/keyed/42")
	}

	@Test
	fun shouldSkipToNullWhenTheLockIsBusy() = inContext { context ->
		val reports = context.getBean(SuspendingReports::class.java)
		val busy = holdElsewhere(context, "kt/skip")
		try {
			assertThat(reports.skippable()).isNull()
		}
		finally {
			busy.release()
		}
		assertThat(reports.skippable()).isEqualTo("ran")
		val busyUnit = holdElsewhere(context, "kt/unit")
		try {
			reports.record("skipped")
		}
		finally {
			busyUnit.release()
		}
		reports.record("ran")
		assertThat(reports.events).containsExactly("ran")
	}

	@Test
	fun shouldHoldTheLockOfAFlowUntilItIsCollected() = inContext { context ->
		val reports = context.getBean(SuspendingReports::class.java)
		val proceed = CompletableDeferred<Unit>()
		val flow = reports.numbers(proceed)
		val collected = CopyOnWriteArrayList<Int>()
		val collecting = launch { flow.collect { collected.add(it) } }
		withContext(Dispatchers.IO) { await().atMost(Duration.ofSeconds(10)).until { collected.size == 1 } }
		assertThat(otherCanLock(context, "kt/flow")).`as`("held while the flow is collected").isFalse()
		proceed.complete(Unit)
		collecting.join()
		assertThat(collected).containsExactly(1, 2)
		assertThat(otherCanLock(context, "kt/flow")).isTrue()
		assertThat(reports.numbers(CompletableDeferred(Unit)).toList()).containsExactly(1, 2)
	}

	@Test
	fun shouldKeepTheLockForItsShortestHoldAfterTheCoroutineCompleted() = inContext { context ->
		val reports = context.getBean(SuspendingReports::class.java)
		val grants = context.getBean(Grants::class.java)
		assertThat(reports.quickJob()).isEqualTo("done")
		assertThat(otherCanLock(context, "kt/hold")).`as`("still held inside the hold").isFalse()
		withContext(Dispatchers.IO) { await().atMost(Duration.ofSeconds(10)).until { grants.released("kt/hold") != null } }
		val (thread, heldFor) = grants.released("kt/hold")!!
		assertThat(thread).startsWith("zklock-release-")
		assertThat(heldFor).isGreaterThanOrEqualTo(Duration.ofSeconds(1))
		assertThat(otherCanLock(context, "kt/hold")).isTrue()
	}

	/** Runs a test body in a coroutine, inside an application context, with a timeout. */
	private fun inContext(body: suspend CoroutineScope.(ApplicationContext) -> Unit) {
		contextRunner.run { context ->
			runBlocking(Dispatchers.Default) { withTimeout(TIMEOUT_MS) { body(context) } }
		}
	}

	/** Whether another thread of the application can take the lock now (and gives it back). */
	private suspend fun otherCanLock(context: ApplicationContext, path: String): Boolean =
		withContext(Dispatchers.IO) { otherCanLockBlocking(context, path) }

	private fun otherCanLockBlocking(context: ApplicationContext, path: String): Boolean =
		context.getBean(ILockByCurator::class.java)
			.tryAcquire(path, LockMode.EXCLUSIVE, Duration.ZERO)
			.map { it.release(); true }
			.orElse(false)

	private suspend fun holdElsewhere(context: ApplicationContext, path: String): LockHandle =
		withContext(Dispatchers.IO) { context.getBean(ILockByCurator::class.java).acquire(path, LockMode.EXCLUSIVE) }

	/** The fencing tokens granted per lock path, in order. */
	class Grants : LockListener {

		private val tokens = ConcurrentHashMap<String, MutableList<Long>>()

		override fun onAcquired(lock: LockTarget, fencingToken: Long, waited: Duration) {
			tokens.computeIfAbsent(lock.lockPath()) { CopyOnWriteArrayList() }.add(fencingToken)
		}

		fun tokens(path: String): List<Long> = tokens[path]?.toList() ?: listOf()

		private val releases = ConcurrentHashMap<String, Pair<String, Duration>>()

		override fun onReleased(lock: LockTarget, fencingToken: Long, heldFor: Duration, result: ReleaseResult) {
			releases.putIfAbsent(lock.lockPath(), Thread.currentThread().name to heldFor)
		}

		/** The releasing thread and the time held, of the first release of `path`. */
		fun released(path: String): Pair<String, Duration>? = releases[path]

	}

	@Configuration(proxyBeanMethods = false)
	open class KotlinConfiguration {

		@Bean
		open fun innerReports() = InnerReports()

		@Bean
		open fun suspendingReports(inner: InnerReports) = SuspendingReports(inner)

		@Bean
		open fun grants() = Grants()

	}

}
