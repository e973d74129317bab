package io.zklock.kotlin

import io.zklock.annotation.DistributedLock
import io.zklock.annotation.HoldExceededException
import io.zklock.annotation.OnHoldExceeded
import io.zklock.lock.LockEngine
import io.zklock.lock.event.LockListener
import io.zklock.lock.event.LockTarget
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.NonCancellable
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.delay
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.flow.take
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.joinAll
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeout
import kotlinx.coroutines.withTimeoutOrNull
import org.assertj.core.api.Assertions.assertThat
import org.awaitility.Awaitility.await
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import org.springframework.context.ApplicationContext
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import java.time.Duration
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.ThreadLocalRandom
import java.util.concurrent.atomic.AtomicInteger

/**
 * A cancelled caller of a `@DistributedLock` suspend function never frees the lock under a
 * body that still runs: the function's coroutine is cancelled too, and the lock goes when it has
 * ended (after a blocking section, a `NonCancellable` `finally`), not when its caller gave up. A
 * `Flow` cut off by `take` keeps its lock `zklock.hold-after-cancel`; `holdAtMost` with
 * `CANCEL` cancels the coroutine and releases when it has ended. Callers cancelled at random
 * never see two bodies at once, and leave nothing behind.
 */
@Timeout(120)
class SuspendingCancellationTests : ZkKotlinTest() {

	companion object {

		private const val TIMEOUT_MS = 60_000L

	}

	private val contextRunner = lockingContext()
		.withUserConfiguration(CancellationConfiguration::class.java)
		.withPropertyValues("zklock.hold-after-cancel=2s")

	@Test
	fun shouldKeepTheLockUntilACancelledCoroutineHasRunItsNonCancellableCleanUp() = inContext { context ->
		val jobs = context.getBean(CancellableJobs::class.java)
		val entered = CompletableDeferred<Unit>()
		val first = launch { jobs.cleaningUp(entered) }
		entered.await()
		first.cancelAndJoin()
		assertThat(jobs.cleaningUp(CompletableDeferred(), wait = false)).isEqualTo("done")
		assertThat(jobs.bodies.max()).`as`("bodies at once under one EXCLUSIVE lock").isEqualTo(1)
		assertThat(jobs.events).containsExactly("cleaned up", "done")
	}

	@Test
	fun shouldKeepTheLockUntilABlockingSectionReturnsWhenTheCallerIsCancelled() = inContext { context ->
		val jobs = context.getBean(CancellableJobs::class.java)
		val entered = CompletableDeferred<Unit>()
		val first = launch { jobs.blocking(entered) }
		entered.await()
		first.cancelAndJoin()
		assertThat(jobs.blocking(CompletableDeferred())).isEqualTo("blocked")
		assertThat(jobs.bodies.entered()).isEqualTo(2)
		assertThat(jobs.bodies.max()).`as`("bodies at once under one EXCLUSIVE lock").isEqualTo(1)
	}

	@Test
	fun shouldKeepTheLockOfAFlowCutOffByTakeForTheHoldAfterCancel() = inContext { context ->
		val jobs = context.getBean(CancellableJobs::class.java)
		assertThat(jobs.parts().take(1).toList()).containsExactly(1)
		assertThat(jobs.parts().toList()).containsExactly(1, 2)
		assertThat(jobs.bodies.max()).`as`("bodies at once under one EXCLUSIVE lock").isEqualTo(1)
		assertThat(context.getBean(Releases::class.java).afterCancel).containsExactly("kt/parts")
	}

	@Test
	fun shouldCancelTheCoroutineOfACallPastItsHoldAtMostAndReleaseWhenItHasEnded() = inContext { context ->
		val jobs = context.getBean(CancellableJobs::class.java)
		assertThat(runCatching { jobs.stuck() }.exceptionOrNull()).isInstanceOf(HoldExceededException::class.java)
			.hasMessageContaining("'kt/stuck'")
		withContext(Dispatchers.IO) {
			await().atMost(Duration.ofSeconds(10)).until { jobs.events.contains("stuck cleaned up") }
			await().atMost(Duration.ofSeconds(10))
				.until { context.getBean(LockEngine::class.java).heldLocks.isEmpty() }
		}
		assertThat(context.getBean(Releases::class.java).afterCancel).`as`("released at its end, not after a bound")
			.isEmpty()
	}

	@Test
	fun shouldNeverRunTwoBodiesAtOnceWhileCallersAreCancelledAtRandom() = inContext { context ->
		val jobs = context.getBean(CancellableJobs::class.java)
		val cancelled = AtomicInteger()
		val completed = AtomicInteger()
		val callers = (1..6).map {
			launch(Dispatchers.Default) {
				val end = System.nanoTime() + Duration.ofSeconds(8).toNanos()
				while (System.nanoTime() < end) {
					val result = withTimeoutOrNull(1L + ThreadLocalRandom.current().nextInt(30)) { jobs.mixed() }
					if (result == null) cancelled.incrementAndGet() else completed.incrementAndGet()
				}
			}
		}
		callers.joinAll()
		assertThat(cancelled.get()).`as`("cancelled callers").isPositive()
		assertThat(jobs.bodies.max()).`as`("bodies at once under one EXCLUSIVE lock").isEqualTo(1)
		withContext(Dispatchers.IO) {
			await().atMost(Duration.ofSeconds(10))
				.until { context.getBean(LockEngine::class.java).heldLocks.isEmpty() }
		}
		println("coroutine cancellation stress: grants=${jobs.bodies.entered()}, cancelled callers=$cancelled, " +
				"completed calls=$completed, most bodies at once=${jobs.bodies.max()}")
	}

	private fun inContext(body: suspend CoroutineScope.(ApplicationContext) -> Unit) {
		contextRunner.run { context ->
			runBlocking(Dispatchers.Default) { withTimeout(TIMEOUT_MS) { body(context) } }
		}
	}

	/** Suspend functions whose work goes on for a while after a cancel. */
	open class CancellableJobs {

		open val bodies = BodiesAtOnce()

		open val events: MutableList<String> = CopyOnWriteArrayList()

		@DistributedLock(path = "kt/cleaning", waitTime = "30s")
		open suspend fun cleaningUp(entered: CompletableDeferred<Unit>, wait: Boolean = true): String {
			bodies.enter()
			try {
				entered.complete(Unit)
				if (wait) {
					awaitCancellation()
				}
				events.add("done")
				return "done"
			}
			finally {
				if (wait) {
					withContext(NonCancellable) {
						delay(300)
						events.add("cleaned up")
					}
				}
				bodies.exit()
			}
		}

		/** Blocks 400 ms, in a section no cancellation ends. */
		@DistributedLock(path = "kt/blocking", waitTime = "30s")
		open suspend fun blocking(entered: CompletableDeferred<Unit>): String {
			bodies.enter()
			try {
				withContext(Dispatchers.IO) {
					entered.complete(Unit)
					sleepThroughInterrupts(400)
				}
				return "blocked"
			}
			finally {
				bodies.exit()
			}
		}

		@DistributedLock(path = "kt/parts", waitTime = "30s")
		open suspend fun parts(): Flow<Int> = flow {
			bodies.enter()
			try {
				emit(1)
				withContext(NonCancellable + Dispatchers.IO) { sleepThroughInterrupts(400) }
				emit(2)
			}
			finally {
				bodies.exit()
			}
		}

		@DistributedLock(path = "kt/stuck", holdAtMost = "200ms", onHoldExceeded = OnHoldExceeded.CANCEL)
		open suspend fun stuck(): String {
			try {
				awaitCancellation()
			}
			finally {
				withContext(NonCancellable) {
					delay(200)
					events.add("stuck cleaned up")
				}
			}
		}

		@DistributedLock(path = "kt/mixed", waitTime = "30s")
		open suspend fun mixed(): Int {
			bodies.enter()
			try {
				delay(ThreadLocalRandom.current().nextLong(1, 5))
				withContext(Dispatchers.IO) { sleepThroughInterrupts(ThreadLocalRandom.current().nextLong(1, 5)) }
				return bodies.entered()
			}
			finally {
				bodies.exit()
			}
		}

		private fun sleepThroughInterrupts(millis: Long) {
			val end = System.nanoTime() + Duration.ofMillis(millis).toNanos()
			while (System.nanoTime() < end) {
				try {
					Thread.sleep(Duration.ofNanos(end - System.nanoTime()).toMillis().coerceAtLeast(1))
				}
				catch (ex: InterruptedException) {
					// work that does not stop for an interrupt
				}
			}
		}

	}

	/** The lock paths released after a cancel whose work's end was not seen. */
	class Releases : LockListener {

		val afterCancel: MutableList<String> = CopyOnWriteArrayList()

		override fun onHoldExceeded(lock: LockTarget, fencingToken: Long, heldFor: Duration, bound: Duration,
				released: Boolean) {
			if (released) {
				afterCancel.add(lock.lockPath())
			}
		}

	}

	@Configuration(proxyBeanMethods = false)
	open class CancellationConfiguration {

		@Bean
		open fun cancellableJobs() = CancellableJobs()

		@Bean
		open fun releases() = Releases()

	}

}
